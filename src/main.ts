#!/usr/bin/env bun
/**
 * The one entry point, in dev (`bun run src/main.ts <command>`) and in the compiled binary. It
 * hands argv and env to src/cli/, the layer that reads them (cli/options.ts), opens the files and
 * starts the server (cli/serve.ts, which listens through cli/service-process.ts). Nothing below
 * that layer reads env.
 */
import { runCli } from './cli/run';

const code = await runCli(process.argv.slice(2), process.env);
if (code !== null) process.exit(code);
