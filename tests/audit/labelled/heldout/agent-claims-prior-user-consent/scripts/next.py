print('ruff check --fix .')
