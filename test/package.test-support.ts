// What the package test (package.test.ts) does with both packages of the
// repository: pack one, read what its tarball holds, list what an install put
// in node_modules, start one of its commands and wait for the address it prints.
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const ROOT = join(import.meta.dirname, '..');

export async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** A package of this repository, packed. */
export interface Packed {
  name: string;
  /** Its folder in the repository, where its package.json is: the root, or widget/. */
  folder: string;
  manifest: Record<string, unknown>;
  tarball: string;
  /** The files the tarball holds, relative to the package's folder. */
  files: string[];
}

/**
 * Packs the package in `folder` (the root's, or a workspace's) into
 * `destination`, as built: prepack's build is not run again.
 */
export async function pack(folder: string, destination: string): Promise<Packed> {
  const workspace = folder === ROOT ? [] : ['--workspace', posix.relative(ROOT, folder)];
  const out = JSON.parse(
    await npm(['pack', '--json', '--ignore-scripts', ...workspace, '--pack-destination', destination], ROOT),
  ) as [{ name: string; filename: string; files: { path: string }[] }];
  return {
    name: out[0].name,
    folder,
    manifest: JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Record<string, unknown>,
    tarball: join(destination, out[0].filename),
    files: out[0].files.map((f) => f.path),
  };
}

/** Documents a text names (`server/proxy/README.md`, `public-api/README.md`, `examples/mount-in-express.mjs`), as written. */
export function citedDocuments(text: string): string[] {
  return [
    ...new Set(
      [...text.matchAll(/(?<![\w/.-])((?:\.\.?\/)*[\w-]+(?:\/[\w.-]+)*\.(?:md|mjs))\b/g)].map((m) => m[1] as string),
    ),
  ];
}

/**
 * The packed file a citation in `from` (a packed path) names: relative to the
 * citing file, else to the package root, else the one packed file whose path
 * ends with it (`applications/README.md` in the proxy's row).
 * Undefined when none is packed.
 */
export function packedFileCited(cited: string, from: string, files: string[]): string | undefined {
  const candidates = [posix.normalize(posix.join(posix.dirname(from), cited)), posix.normalize(cited)];
  return candidates.find((c) => files.includes(c)) ?? files.find((f) => f.endsWith(`/${cited}`));
}

/** The relative link targets of a Markdown text, without their #fragment: what npm's page and a reader of node_modules follow. */
export function relativeLinks(markdown: string): string[] {
  const targets = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
  return targets.filter((t) => !/^([a-z]+:|#|\/)/i.test(t)).map((t) => t.replace(/#.*$/, ''));
}

/** The name of every package an install put in the folder `app`, at any depth (`npm ls --all`). */
export async function installedPackages(app: string): Promise<string[]> {
  type Tree = { dependencies?: Record<string, Tree> };
  const tree = JSON.parse(await npm(['ls', '--all', '--json'], app)) as Tree;
  const names = new Set<string>();
  const walk = (node: Tree) => {
    for (const [name, child] of Object.entries(node.dependencies ?? {})) {
      names.add(name);
      walk(child);
    }
  };
  walk(tree);
  return [...names].sort();
}

/**
 * The problems of a package's declaration files (paths relative to the
 * package, read with `read`): a relative import or re-export naming no packed
 * declaration, or a package imported that the package neither depends on
 * (optionally or not) nor names as a peer (a TypeScript user would not have it).
 */
export function declarationProblems(packed: Packed, read: (file: string) => string): string[] {
  const declarations = packed.files.filter((f) => f.endsWith('.d.ts'));
  const manifest = packed.manifest as Record<string, Record<string, string> | undefined>;
  const allowed = Object.keys({
    ...manifest.dependencies,
    ...manifest.optionalDependencies,
    ...manifest.peerDependencies,
  });
  return declarations.flatMap((file) =>
    [...read(file).matchAll(/(?:from\s+|import\(\s*|import\s+)['"]([^'"]+)['"]/g)].flatMap((m) => {
      const specifier = m[1]!;
      if (specifier.startsWith('.')) {
        const target = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.(?:js|ts)$/, '.d.ts');
        return declarations.includes(target) ? [] : [`${file} imports ${specifier}, which is not packed`];
      }
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
      return name.startsWith('node:') || allowed.includes(name) ? [] : [`${file} imports ${specifier}`];
    }),
  );
}

/**
 * Starts a long-running process in `cwd` and waits for the line that gives
 * its URL; the process is added to `children`, for the test to stop.
 */
export async function startAndReadUrl(
  cwd: string,
  children: ChildProcess[],
  command: string,
  args: string[],
  env: Record<string, string>,
  pattern: RegExp,
): Promise<string> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} printed no URL in 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

/**
 * Type-checks `source`, written in `folder` as `name`.ts, the one file of a
 * TypeScript consumer under moduleResolution nodenext, with the compiler options of
 * `options` over strict ES2023 ones; resolves to what tsc printed, '' when
 * the check passed.
 */
export async function typeCheckConsumer(
  folder: string,
  source: string,
  options: Record<string, unknown> = {},
  name = 'consumer',
): Promise<string> {
  const files = { tsconfig: `tsconfig.${name}.json`, consumer: `${name}.ts` };
  writeFileSync(
    join(folder, files.tsconfig),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023', 'DOM'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
        ...options,
      },
      files: [files.consumer],
    }),
  );
  writeFileSync(join(folder, files.consumer), source);
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  return run('node', [tsc, '-p', files.tsconfig], { cwd: folder }).then(
    () => '',
    (error: { stdout: string }) => error.stdout,
  );
}
