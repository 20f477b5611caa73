import { ingestCommand } from './ingest';
import { layoutAreaCommand } from './layout-area';
import { LAYOUT_COMMAND } from '../index/area/spatial-layout-process';
import { keysCommand } from './keys';
import { serveCommand } from './serve';
import { versionText } from './version-text';
import { printable } from './printable';

const USAGE = `facility-score <command> [options]

Commands:
  serve   [--port 8080] [--host 0.0.0.0] [--index PATH] [--state-dir DIR]   serve the API
  keys    create|list|revoke|set-tier|set-limit|regenerate|watchlists|...   manage accounts, API keys, watchlists
  ingest  <file>... --out PATH [--as-of YYYY-MM-DD]                          build a facility index
  --version                                                                  version, commit, score method, dataset

Run \`facility-score <command> --help\` for a command's options. Environment equivalents: docs/operations.md.`;

type Command = (args: string[], env: Record<string, string | undefined>) => Promise<number | null>;

const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  keys: keysCommand,
  ingest: ingestCommand,
  // hidden: ingest's area layout in a process of its own (not in USAGE)
  [LAYOUT_COMMAND]: layoutAreaCommand,
};

/** Runs one CLI command; returns the exit code, or null when the command keeps running (serve). */
export async function runCli(argv: string[], env: Record<string, string | undefined>): Promise<number | null> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    const { text, indexOk } = await versionText(env);
    console.log(text);
    return indexOk ? 0 : 1;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return name === undefined ? 1 : 0;
  }
  // Own entries only: "constructor" or "toString" would find the object's prototype.
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`facility-score: unknown command "${printable(name)}"\n\n${USAGE}`);
    return 2;
  }
  try {
    return await command(rest, env);
  } catch (e) {
    console.error(`facility-score ${name}: ${printable((e as Error).message)}`);
    return 1;
  }
}
