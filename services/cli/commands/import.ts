import { readFileSync } from 'node:fs';
import { UsageError } from '../args.js';
import { withHost } from '../store.js';
import type { Command } from '../command.js';

export const importCommand: Command = {
  name: 'import',
  flags: ['db'],
  usage: 'suitors import FILE [--db FILE]',
  summary: 'create a table from a game record, after verifying the record against the rules',
  async run(args) {
    const [file] = args.positional;
    if (file === undefined) throw new UsageError('name the record file to import');
    let record: unknown;
    try {
      record = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read a JSON record from ${file}: ${(error as Error).message}`);
    }
    return withHost(
      args,
      async (host) => {
        const { tableId, version } = await host.importRecord(record);
        console.log(`imported ${file} as table ${tableId} (${version} events)`);
        return 0;
      },
      { ifMissing: 'create' },
    );
  },
};
