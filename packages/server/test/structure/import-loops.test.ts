import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from './source-files';

/**
 * The groups of files that import each other, directly or through others (strongly connected
 * components, Tarjan): each group is a loop.
 */
function importLoops(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1 || graph.get(file)?.includes(file)) loops.push(group.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return loops;
}

describe('imports', () => {
  it('form no loop in packages/*/src, type-only imports included (lint sees runtime loops only)', () => {
    const files = sourceFiles();
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
    // A file that imports nothing we know would make the check pass without looking.
    expect(graph.get('packages/server/src/db/database.ts')).toContain(
      'packages/server/src/db/listing-json-trigger.ts',
    );
    expect(importLoops(graph)).toEqual([]);
  });

  it('finds a loop, also one made of type imports', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importLoops(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
