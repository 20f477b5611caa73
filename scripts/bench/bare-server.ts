// Baseline for bench-lookup: the cheapest possible Bun HTTP server, a constant 300-byte JSON body.
const body = JSON.stringify({ data: { registry_id: '990000000001', fac_name: 'X'.repeat(200) }, meta: { request_id: 'req_0', t: 1 } }).padEnd(300, ' ');
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(body, { headers: { 'content-type': 'application/json' } }) });
console.log(`"port":${server.port}`);
