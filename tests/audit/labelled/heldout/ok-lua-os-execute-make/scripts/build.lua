local ok = os.execute('make -j2')
if not ok then os.exit(1) end
os.execute('luacheck src/ --no-color')
print('built')
