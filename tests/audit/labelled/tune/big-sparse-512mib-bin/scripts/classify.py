print('classify')
