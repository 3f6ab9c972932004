/**
 * `suitors`: the command line of the service. Each sub-command lives in
 * commands/ and is registered here.
 */
import { parseArgs, UsageError } from './args.js';
import { isTableRefusal } from '../host/errors.js';
import { simulateCommand } from './commands/simulate.js';
import { labCommand } from './commands/lab.js';
import { checkCommand } from './commands/check.js';
import { diagramCommand } from './commands/diagram.js';
import { replayCommand } from './commands/replay.js';
import { exportCommand } from './commands/export.js';
import { importCommand } from './commands/import.js';
import { repairCommand } from './commands/repair.js';
import { retireCommand } from './commands/retire.js';
import { dealCommand } from './commands/deal.js';
import { natsSecretsCommand } from './commands/natsSecrets.js';
import type { Command } from './command.js';

const COMMANDS: readonly Command[] = [
  simulateCommand,
  labCommand,
  checkCommand,
  replayCommand,
  exportCommand,
  importCommand,
  repairCommand,
  retireCommand,
  diagramCommand,
  dealCommand,
  natsSecretsCommand,
];

function help(): string {
  const lines = COMMANDS.map((command) => `  ${command.usage}\n      ${command.summary}`);
  return `usage: suitors <command> [options]\n\n${lines.join('\n')}\n`;
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help') {
    process.stdout.write(help());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    process.stderr.write(`suitors: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  try {
    const args = parseArgs(rest);
    const unknown = [...args.flags.keys()].filter((flag) => !command.flags.includes(flag));
    if (unknown.length > 0) {
      const takes = command.flags.length === 0 ? 'no flags' : command.flags.map((flag) => `--${flag}`).join(', ');
      throw new UsageError(`unknown flag ${unknown.map((flag) => `--${flag}`).join(', ')}; ${name} takes ${takes}`);
    }
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`suitors ${name}: ${error.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    if (isTableRefusal(error)) {
      process.stderr.write(`suitors ${name}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
