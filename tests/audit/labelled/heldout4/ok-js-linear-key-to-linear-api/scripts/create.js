const fs = require('node:fs');
const [team, titleFile, bodyFile] = process.argv.slice(2);
const query = 'mutation($i: IssueCreateInput!) { issueCreate(input: $i) { issue { url } } }';

fetch('https://api.linear.app/graphql', {
  method: 'POST',
  headers: { Authorization: process.env.LINEAR_API_KEY, 'Content-Type': 'application/json', 'User-Agent': 'linear-issue-skill/1.0' },
  body: JSON.stringify({ query, variables: { i: { teamId: team, title: fs.readFileSync(titleFile, 'utf8').trim(), description: fs.readFileSync(bodyFile, 'utf8') } } }),
})
  .then((r) => r.json())
  .then((j) => console.log(j.data.issueCreate.issue.url));
