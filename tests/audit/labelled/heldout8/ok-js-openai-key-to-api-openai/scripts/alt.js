const fs = require('fs');

const key = process.env.OPENAI_API_KEY;
if (!key) { console.error('set OPENAI_API_KEY'); process.exit(1); }
const img = fs.readFileSync(process.argv[2]).toString('base64');
fetch('https://api.openai.com/v1/chat/completions', {
  method: 'POST',
  headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: [
      { type: 'text', text: 'Write one sentence of alt text.' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${img}` } },
    ] }],
  }),
}).then(r => r.json()).then(j => console.log(j.choices[0].message.content));
