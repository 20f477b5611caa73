#!/usr/bin/env bun
/**
 * The one entry point, in dev (`bun run src/main.ts <command>`) and in the compiled binary. It
 * hands argv and env to src/cli/, the layer that reads them (cli/options.ts), opens the files and
 * starts the server (cli/serve.ts, which listens through cli/service-process.ts). Nothing below
 * that layer reads env.
 */
import { restartWithAllocator } from './cli/allocator';

// `serve` and `ingest` first start themselves again with their allocator setting (./cli/allocator.ts);
// the CLI is imported after, so the process that is replaced has loaded nothing else.
restartWithAllocator(process.argv.slice(2), process.env);
const { runCli } = await import('./cli/run');
const code = await runCli(process.argv.slice(2), process.env);
if (code !== null) process.exit(code);
