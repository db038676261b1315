// Performs HTTP requests for the UrlFetchApp stand-in: reads [{url, method, headers, body}] as JSON
// on stdin, sends them all at once (as UrlFetchApp.fetchAll does) and prints
// [{status, headers, body}] or [{failure}] as JSON. Run synchronously by the parent with
// execFileSync, so an Apps Script function can fetch synchronously, as it does at Google.
let input = '';
for await (const chunk of process.stdin) input += chunk;
const requests = JSON.parse(input);
const responses = await Promise.all(
  requests.map(async (r) => {
    try {
      const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body, redirect: 'manual' });
      return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
    } catch (e) {
      return { failure: `${e.message}${e.cause ? `: ${e.cause.message ?? e.cause.code}` : ''}` };
    }
  }),
);
process.stdout.write(JSON.stringify(responses));
