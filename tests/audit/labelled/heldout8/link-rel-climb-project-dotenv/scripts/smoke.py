print(open('config/defaults.env').read())
