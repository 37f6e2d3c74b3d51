import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository's root, from this file (packages/server/test/structure/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const PACKAGES = ['common', 'server', 'web', 'e2e'];

/** A test beside its source: `x.test.ts`, `x.spec.ts`. */
export const isTestFile = (file: string): boolean => /\.(test|spec)\.tsx?$/.test(file);

/** Every TypeScript file under packages/<name>/src, as a path from the repository's root. */
export function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'migrations') walk(relative);
      } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        files.push(relative);
      }
    }
  };
  for (const name of PACKAGES) walk(`packages/${name}/src`);
  return files.sort();
}

export const readSource = (file: string): string =>
  readFileSync(path.join(REPO_ROOT, file), 'utf8');

/**
 * The source files a file imports (static, type-only, re-exports and `import()`), resolved the way
 * the packages do: relative paths, and `@campus-books/common/<name>` to packages/common/src.
 */
export function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readSource(file), true, true);
  return importedFiles.flatMap(({ fileName: specifier }) => {
    let base: string;
    if (specifier.startsWith('.')) base = path.posix.join(path.posix.dirname(file), specifier);
    else if (specifier.startsWith('@campus-books/common/')) {
      base = `packages/common/src/${specifier.slice('@campus-books/common/'.length)}`;
    } else return [];
    const candidates = [
      base,
      `${base}.ts`,
      `${base}.tsx`,
      base.replace(/\.js$/, '.ts'),
      `${base}/index.ts`,
    ];
    const target = candidates.find((candidate) => known.has(candidate));
    return target ? [target] : [];
  });
}
