import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../src/node-flags';
import { spawnServer, stopServer } from '../support/server-process';

const root = path.resolve(import.meta.dirname, '../../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The node command of a command line that starts the server bundle: what comes before it. */
function flagsBeforeBundle(command: string): string[] {
  const match = /node((?: --?[\w-]+(?:=\S+)?)*) packages\/server\/dist\/server\.js/.exec(command);
  if (!match) throw new Error(`no node command of the server in: ${command}`);
  return match[1]!.trim().split(/\s+/).filter(Boolean);
}

describe("the server's V8 flags (src/node-flags.ts)", () => {
  it('are on every command that starts the server', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
      .scripts;
    expect(flagsBeforeBundle(scripts['start:server']!)).toEqual(SERVER_NODE_FLAGS);
    for (const unit of ['ops/systemd/campus-books.service', 'ops/systemd/campus-books@.service']) {
      const execStart = /^ExecStart=(.*)$/m.exec(read(unit))?.[1] ?? '';
      expect(flagsBeforeBundle(execStart), unit).toEqual(SERVER_NODE_FLAGS);
    }
  });

  it("reach the server's process from the launcher the tests and the bench use", async () => {
    // Read as soon as it is spawned (the spawn returns once the command runs); it need not start.
    const server = spawnServer(0);
    try {
      const cmdline = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
      for (const flag of SERVER_NODE_FLAGS) expect(cmdline).toContain(flag);
    } finally {
      await stopServer(server);
    }
  });
});
