// bench-lookup's reference server: the minimal lookup app (./minimal-lookup-app.ts) listening on a free port.
import { minimalLookupApp } from './minimal-lookup-app';

const { app } = minimalLookupApp(process.argv[2]!);
app.listen({ port: 0, hostname: '127.0.0.1' });
console.log(`"port":${app.server!.port}`);
