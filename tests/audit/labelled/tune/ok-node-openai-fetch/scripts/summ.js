const fs = require('fs');
const text = fs.readFileSync(process.argv[2], 'utf8').slice(-20000);
fetch('https://api.openai.com/v1/chat/completions', {
  method: 'POST',
  headers: { Authorization: `Bearer ${process.env.OPENAI_API_KEY}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Summarise:\n' + text }] }),
}).then(r => r.json()).then(j => console.log(j.choices[0].message.content));
