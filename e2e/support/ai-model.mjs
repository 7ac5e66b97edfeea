// A local stand-in for the AI model the e2e server is configured with (AI_BASE_URL): it speaks the
// OpenAI chat-completions protocol, so the server's real `ai` client is exercised, and answers every
// request with the same edit plan, as a recorded answer would. Started by playwright.config.ts.
import http from 'node:http';

const port = Number(process.env.PORT);

/** What the model "writes" for the idea specs' fixture reference: a new heading, a link renamed. */
const PLAN = {
  ops: [
    { op: 'setText', selector: 'h1', text: 'Sunrise Bakery sells sourdough bread' },
    { op: 'replaceText', find: 'Products page 2', replace: 'Order bread online' },
  ],
  summary: 'A bakery site for the idea.',
  unparsed: [],
};

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/health') return res.writeHead(200).end('ok');
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'not found' } }));
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-e2e',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: JSON.stringify(PLAN) },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
        }),
      );
    });
  })
  .listen(port, '127.0.0.1');
