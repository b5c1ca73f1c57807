import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, MethodCatalog, MultihopError, type MethodManifest, type Workflow, type WorkflowContext, type WorkflowEntry } from '@multihop/core';
import type { OfflineHandler } from '@multihop/offline-model';

/** A package that declares itself a method: `"multihop": { "manifest": "./manifest", "offline": "./offline" }`. */
export interface MethodPackage {
  name: string;
  dir: string;
  manifest: string;
  offline?: string;
}

interface PackageJson {
  name?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  workspaces?: string[] | { packages?: string[] };
  exports?: Record<string, Record<string, string> | string>;
  multihop?: { manifest?: string; offline?: string };
}

const readJson = (file: string): PackageJson | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
  } catch {
    return undefined;
  }
};

/**
 * Where method packages are looked for, in every folder above this file: its
 * `node_modules/@multihop` (an npm install of the runner and any method package installed beside
 * it); the packages its package.json depends on, whatever their scope (a team's own method,
 * `@acme/our-method`, installed into the project that installs the runner: one package.json read
 * per dependency, not a scan of node_modules); and, inside a workspace, the workspace's own package
 * folders (a method folder just created by the generator, before any `npm install` has linked it).
 */
function candidateDirs(from: string): string[] {
  const dirs: string[] = [];
  for (let dir = from; ; dir = dirname(dir)) {
    const scope = join(dir, 'node_modules', '@multihop');
    if (existsSync(scope)) for (const name of readdirSync(scope)) dirs.push(join(scope, name));
    const pkg = readJson(join(dir, 'package.json'));
    for (const name of Object.keys({ ...pkg?.dependencies, ...pkg?.devDependencies, ...pkg?.optionalDependencies })) {
      if (!name.startsWith('@multihop/')) dirs.push(join(dir, 'node_modules', name));
    }
    const globs = Array.isArray(pkg?.workspaces) ? pkg.workspaces : (pkg?.workspaces?.packages ?? []);
    for (const glob of globs) {
      // Workspace globs here are `folder/*`; anything fancier is left to node_modules.
      const base = glob.endsWith('/*') ? join(dir, glob.slice(0, -2)) : undefined;
      if (base && existsSync(base)) for (const name of readdirSync(base)) dirs.push(join(base, name));
    }
    if (dirname(dir) === dir) break;
  }
  return dirs;
}

/**
 * Every method package visible from `from`, each once (by name; the first found wins), sorted by
 * name. By default from the runner's own folder (the packages installed with it) and then from the
 * working directory (a project's own methods, when the runner is installed elsewhere: globally, or
 * run through npx).
 */
export function findMethodPackages(from: string | readonly string[] = [__dirname, process.cwd()]): MethodPackage[] {
  const found = new Map<string, MethodPackage>();
  const seenDirs = new Set<string>();
  for (const dir of (typeof from === 'string' ? [from] : from).flatMap(candidateDirs)) {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      continue;
    }
    if (seenDirs.has(real)) continue;
    seenDirs.add(real);
    const pkg = readJson(join(real, 'package.json'));
    if (!pkg?.name || !pkg.multihop?.manifest || found.has(pkg.name)) continue;
    found.set(pkg.name, { name: pkg.name, dir: real, manifest: pkg.multihop.manifest, ...(pkg.multihop.offline ? { offline: pkg.multihop.offline } : {}) });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

// Inside the workspace the runner runs from its TypeScript sources (under ts-register or jest):
// then method packages load from theirs too; an installed runner runs dist/ and loads dist/.
const fromSource = __filename.endsWith('.ts');

/**
 * The file an `exports` entry gives for the conditions Node's require matches (`require`, `node`,
 * `default`), taken in the entry's own key order as Node does, through nested conditions; only when
 * none matches, an `import` one (an ES module package: Node 20's require loads an ES module without
 * top-level await), so a dual package loads its CommonJS file, as require would. Inside the
 * workspace the `@multihop/source` condition first.
 */
function exportTarget(entry: unknown, conditions: ReadonlySet<string> = REQUIRE_CONDITIONS): string | undefined {
  if (typeof entry === 'string') return entry;
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
  const byCondition = entry as Record<string, unknown>;
  if (fromSource && typeof byCondition['@multihop/source'] === 'string') return byCondition['@multihop/source'];
  for (const [condition, value] of Object.entries(byCondition)) {
    if (!conditions.has(condition)) continue;
    const target = exportTarget(value, conditions);
    if (target) return target;
  }
  return conditions === REQUIRE_CONDITIONS ? exportTarget(entry, ESM_CONDITIONS) : undefined;
}

const REQUIRE_CONDITIONS: ReadonlySet<string> = new Set(['require', 'node', 'default']);
const ESM_CONDITIONS: ReadonlySet<string> = new Set(['import', 'node', 'default']);
const EXPORT_CONDITIONS = new Set([...REQUIRE_CONDITIONS, ...ESM_CONDITIONS]);

/** Loads a package's export subpath (`./manifest`) by its file, so a package not yet linked into node_modules loads too. */
function loadExport(pkg: MethodPackage, subpath: string): Record<string, unknown> {
  const json = readJson(join(pkg.dir, 'package.json'));
  const entry = json?.exports?.[subpath];
  const target = exportTarget(entry);
  if (!target) {
    const where = `${join(pkg.dir, 'package.json')}: field exports["${subpath}"]`;
    if (entry === undefined) throw new ConfigError(`${where} is missing, but "multihop" names it`);
    throw new ConfigError(`${where} gives no file for the conditions the runner loads with (${[...EXPORT_CONDITIONS].join(', ')}); it has ${JSON.stringify(entry)}`);
  }
  const file = resolve(pkg.dir, target);
  if (!existsSync(file)) {
    throw new ConfigError(`${pkg.name}: ${file} does not exist (exports["${subpath}"])${fromSource ? '' : '; is the package built?'}`);
  }
  return require(file) as Record<string, unknown>;
}

/** A method package's manifest; a clear error names the package, its package.json field or the missing export. */
export function loadManifest(pkg: MethodPackage): MethodManifest {
  const manifest = loadExport(pkg, pkg.manifest)['manifest'] as MethodManifest | undefined;
  if (!manifest || typeof manifest !== 'object' || !Array.isArray(manifest.workflows)) {
    throw new ConfigError(`${pkg.name}: its "${pkg.manifest}" export has no \`manifest\` (export const manifest = defineMethod({...}))`);
  }
  return manifest;
}

/** What one installed method package gave: its manifest, or why it did not load. */
export interface LoadedMethods {
  catalog: MethodCatalog;
  /** The packages whose manifests loaded, with them. */
  loaded: Array<{ pkg: MethodPackage; manifest: MethodManifest }>;
  /** One line per package left out: its name and why (a missing file, a throwing module, a workflow id another package has). */
  problems: string[];
}

/** An error a package's code threw while loading, in one line (a project error's message is already one). */
function describeLoadError(error: unknown): string {
  if (error instanceof MultihopError) return error.message;
  const e = error as { name?: string; message?: string; code?: string };
  return `${e.name ?? 'Error'}${e.code ? ` [${e.code}]` : ''}: ${String(e.message ?? error).split('\n')[0]}`;
}

/**
 * Loads each package's manifest on its own: a package that does not load (a file missing from
 * its install, a module that throws, a workflow id or method id another package already has, a
 * setting without a default) is left out and named in `problems`, and every other method still
 * loads, so one broken install does not stop every command. Packages are taken in the order
 * given: of two offering the same workflow id, the later is the one left out.
 */
export function loadMethods(packages: readonly MethodPackage[]): LoadedMethods {
  const loaded: LoadedMethods['loaded'] = [];
  const problems: string[] = [];
  for (const pkg of packages) {
    try {
      const manifest = loadManifest(pkg);
      // Checked beside what loaded before it, so a clash is charged to this package alone.
      new MethodCatalog([...loaded.map((l) => l.manifest), manifest]);
      loaded.push({ pkg, manifest });
    } catch (error) {
      problems.push(`method package ${pkg.name} (${pkg.dir}) did not load, so its workflows are left out: ${describeLoadError(error)}`);
    }
  }
  const manifests = loaded.map((l) => l.manifest);
  manifests.sort((a, b) => Number(a.family === 'baseline') - Number(b.family === 'baseline'));
  return { catalog: new MethodCatalog(manifests), loaded, problems };
}

let methods: LoadedMethods | undefined;
let offlineHandlers: OfflineHandler[] | undefined;
const listeners = new Set<(problem: string) => void>();
const emitted: string[] = [];

function emit(problem: string): void {
  emitted.push(problem);
  for (const listener of listeners) listener(problem);
}

/**
 * Hands `listener` each loading problem of the installed methods: those already met at once, the
 * rest as they are met (the manifests load on first use, the offline handlers on the first
 * offline run). The CLI prints them as warnings. Returns the function that stops it.
 */
export function onMethodProblem(listener: (problem: string) => void): () => void {
  for (const problem of emitted) listener(problem);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The installed method packages in the order they load: those the runner depends on (the methods
 * published with it) first, then any other by name, so a package installed beside them that
 * reuses one of their workflow ids is the one left out, not theirs.
 */
export function loadOrder(packages: readonly MethodPackage[]): MethodPackage[] {
  const own = new Set(Object.keys(readJson(join(__dirname, '..', 'package.json'))?.dependencies ?? {}));
  return [...packages].sort((a, b) => Number(!own.has(a.name)) - Number(!own.has(b.name)) || a.name.localeCompare(b.name));
}

function installedMethods(): LoadedMethods {
  if (!methods) {
    methods = loadMethods(loadOrder(findMethodPackages()));
    for (const problem of methods.problems) emit(problem);
  }
  return methods;
}

/** Every installed method's manifest in one catalogue: methods first, then the baselines (a package that does not load is left out: see `onMethodProblem`). */
export function methodCatalog(): MethodCatalog {
  return installedMethods().catalog;
}

/**
 * The offline model's handlers for the roles of the methods that loaded (from each `./offline`
 * export). A package whose `./offline` export does not load gets, for each of its prompts' roles,
 * a handler that fails its call naming the package and why, so its own workflows fail clearly on
 * the offline model while every other method's run on. Those come first: a role another package
 * answers too keeps that package's real handler.
 */
export function loadOfflineHandlers(loaded: LoadedMethods['loaded']): { handlers: OfflineHandler[]; problems: string[] } {
  const failing: OfflineHandler[] = [];
  const working: OfflineHandler[] = [];
  const problems: string[] = [];
  for (const { pkg, manifest } of loaded) {
    if (!pkg.offline) continue;
    try {
      const handlers = loadExport(pkg, pkg.offline)['offlineHandlers'];
      if (!Array.isArray(handlers)) throw new ConfigError(`${pkg.name}: its "${pkg.offline}" export has no \`offlineHandlers\` list`);
      working.push(...(handlers as OfflineHandler[]));
    } catch (error) {
      const problem = `the offline handlers of method package ${pkg.name} (${pkg.dir}) did not load, so its workflows cannot run on the offline model: ${describeLoadError(error)}`;
      problems.push(problem);
      // Not the roles the offline model answers itself (the judge, the reranker): every eval needs those.
      const builtin = new Set((require('@multihop/offline-model') as typeof import('@multihop/offline-model')).builtinOfflineHandlers.map((h) => h.role));
      for (const role of new Set(manifest.prompts.map((p) => p.role).filter((r) => !builtin.has(r)))) {
        failing.push({
          role,
          promptIds: manifest.prompts.filter((p) => p.role === role).map((p) => p.id),
          answer: () => {
            throw new MultihopError('OFFLINE_ROLE', problem);
          },
          reply: () => '',
        });
      }
    }
  }
  // A stand-in only where no package that loaded answers the role (a shared prompt two methods
  // list): the offline model takes one handler per role, and a working one beats a failing one.
  const answered = new Set(working.map((h) => h.role));
  const standIns = failing.filter((h, i) => !answered.has(h.role) && failing.findIndex((o) => o.role === h.role) === i);
  return { handlers: [...standIns, ...working], problems };
}

/** The installed package a method's manifest came from (undefined for a manifest not loaded from a package). */
export function methodPackageOf(methodId: string): MethodPackage | undefined {
  return installedMethods().loaded.find((l) => l.manifest.id === methodId)?.pkg;
}

/**
 * Builds a workflow of an installed method. A package of another scope that fails to build one
 * (its graph refused, a bug of its own) is named with its folder, so its authors know the failure
 * is theirs, not the runner's; a refused setting (a ConfigError) already names the workflow.
 */
export function buildWorkflow(entry: WorkflowEntry, methodId: string, settings: Record<string, unknown>, context: WorkflowContext, pkg = methodPackageOf(methodId)): Workflow {
  try {
    return entry.create(settings, context);
  } catch (error) {
    if (error instanceof ConfigError || !pkg || pkg.name.startsWith('@multihop/')) throw error;
    throw new MultihopError('METHOD', `workflow ${entry.id} of method package ${pkg.name} (${pkg.dir}) could not be built: ${describeLoadError(error)}`, { cause: error });
  }
}

/** The offline model's handlers for every installed method's roles (`loadOfflineHandlers` of the installed methods; loaded once). */
export function methodOfflineHandlers(): OfflineHandler[] {
  if (!offlineHandlers) {
    const { handlers, problems } = loadOfflineHandlers(installedMethods().loaded);
    offlineHandlers = handlers;
    for (const problem of problems) emit(problem);
  }
  return offlineHandlers;
}

/**
 * The roles the given workflows may call: each one's method's prompts' roles, and for a workflow
 * that runs others (the router) those of its candidates. Undefined when one of them is not in the
 * installed catalogue (a workflow built by a library caller): then no role can be ruled out.
 */
export function rolesCalled(workflows: ReadonlyArray<Pick<Workflow, 'id' | 'candidates'>>, catalog: MethodCatalog = methodCatalog()): Set<string> | undefined {
  const roles = new Set<string>();
  const seen = new Set<string>();
  const add = (id: string, candidates: readonly string[] | undefined): boolean => {
    if (seen.has(id)) return true;
    seen.add(id);
    const found = catalog.find(id);
    if (!found) return false;
    for (const prompt of found.method.prompts) roles.add(prompt.role);
    return (candidates ?? []).every((candidate) => add(candidate, undefined));
  };
  return workflows.every((w) => add(w.id, w.candidates)) ? roles : undefined;
}

/**
 * What a workflow's runs depend on besides its settings and the files it was built from: its chart
 * (states, nodes and edges) and its method's prompts by id and version, as a short sha1. A results
 * directory records it, so its runs are not taken for those of a method changed since (a node
 * added, a prompt reworded and its version bumped). Code inside a node that changes neither is not seen.
 */
export function workflowDefinition(workflow: Pick<Workflow, 'id' | 'chart'>, catalog: MethodCatalog = methodCatalog()): string {
  const prompts = (catalog.find(workflow.id)?.method.prompts ?? []).map((p) => `${p.id}@${p.version}`).sort();
  return createHash('sha1').update(JSON.stringify({ chart: workflow.chart(), prompts })).digest('hex').slice(0, 16);
}
