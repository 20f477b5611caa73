#!/usr/bin/env bun
/**
 * The one entry point, in dev (`bun run src/main.ts <command>`) and in the compiled binary.
 * The only module that reads argv/env, opens files or listens on a port (via src/cli/*).
 */
import { runCli } from './cli/run';

const code = await runCli(process.argv.slice(2), process.env);
if (code !== null) process.exit(code);
