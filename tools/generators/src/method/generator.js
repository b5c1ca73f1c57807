// @ts-check
'use strict';
// `npx nx g @multihop/tools:method <name> [--engine langgraph|xstate]`: a method package that
// works as generated — its manifest lists one workflow, its agent calls one prompt that the
// offline model answers through the method's own handler, and its tests pass — and that the
// runner lists (`multihop workflows`). It writes the folder packages/<name>/ and one line
// outside it: the runner's dependency on the new package (apps/runner/package.json), which the
// packaging rules require of a method host so that the published CLI brings every method.
// Plain JavaScript so Nx loads it without a TypeScript loader. tools/generators/README.md is its guide.
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { join, relative, sep } = require('node:path');

const RUNNER_PACKAGE = 'apps/runner/package.json';

/** @param {string} id a kebab-case id */
function namesOf(id) {
  const words = id.split('-');
  const pascal = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return {
    __name__: id,
    __Name__: pascal,
    __camel__: pascal.charAt(0).toLowerCase() + pascal.slice(1),
    __CONST__: words.map((w) => w.toUpperCase()).join('_'),
  };
}

/** @param {string} dir @returns {string[]} */
function templateFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? templateFiles(path) : [path];
  });
}

/**
 * @typedef {{
 *   root?: string;
 *   exists(path: string): boolean;
 *   read(path: string, encoding: 'utf-8'): string | null;
 *   write(path: string, content: string): void;
 *   children(dir: string): string[];
 * }} Tree Nx's virtual file tree (the part of it this generator uses)
 */

/** @typedef {{ package: string; method: string; workflows: string[] }} KnownMethod */

// Run in a child node process in the workspace: the runner's own discovery (apps/runner/src/methods.ts,
// the code every `multihop` command uses), each manifest loaded on its own so one broken method
// does not hide the ids of the others.
const LIST_METHODS = `
require('@multihop/ts-register');
const { findMethodPackages, loadManifest } = require(require('node:path').resolve('apps/runner/src/methods.ts'));
const methods = [];
const problems = [];
for (const pkg of findMethodPackages(process.cwd())) {
  try {
    const manifest = loadManifest(pkg);
    methods.push({ package: pkg.name, method: String(manifest.id), workflows: manifest.workflows.map((w) => String(w.id)) });
  } catch (error) {
    problems.push(pkg.name + ': ' + (error && error.message ? error.message : String(error)));
  }
}
process.stdout.write(JSON.stringify({ methods, problems }));
`;

/**
 * The method ids and workflow ids the workspace already has, as the runner finds them (every
 * method package of the workspace and of node_modules/@multihop, by its package.json's
 * `multihop` field, its manifest loaded). `problems` names what could not be read.
 * @param {string} root the workspace root
 * @returns {{ methods: KnownMethod[]; problems: string[] }}
 */
function workspaceMethods(root) {
  if (!existsSync(join(root, 'apps', 'runner', 'src', 'methods.ts'))) {
    return { methods: [], problems: [`${join(root, 'apps/runner/src/methods.ts')} is missing: the ids of existing methods and workflows were not checked`] };
  }
  const child = spawnSync(process.execPath, ['-e', LIST_METHODS], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  try {
    return JSON.parse(child.stdout);
  } catch {
    const why = `${child.error?.message ?? ''}${child.stderr ?? ''}`.trim().split('\n').slice(0, 5).join('\n');
    return { methods: [], problems: [`the workspace's methods could not be listed (${why || `exit ${child.status}`}): the ids of existing methods and workflows were not checked`] };
  }
}

/**
 * Why `id` cannot be a new method's id in this workspace (its method id and its first workflow's
 * id are both `id`), or undefined: with another method or workflow of that id, every `multihop`
 * command leaves one of the two packages out ("workflow id … is offered by both …"), most likely
 * the new one, and another workspace package named
 * @multihop/<id> makes npm's workspaces ambiguous.
 * @param {string} id
 * @param {KnownMethod[]} methods
 * @param {string[]} packageNames the workspace's package names
 * @returns {string | undefined}
 */
function collision(id, methods, packageNames) {
  const advice = `choose another name (\`npx nx g @multihop/tools:method <another-name>\`): a method's id and its first workflow's id are its name, and the runner needs every method id and workflow id to be unique`;
  const owner = methods.find((m) => m.method === id);
  if (owner) return `"${id}" is already the method id of ${owner.package}; ${advice}`;
  const offering = methods.filter((m) => m.workflows.includes(id));
  if (offering.length) return `"${id}" is already a workflow id of ${offering.map((m) => `${m.package} (method "${m.method}")`).join(' and ')}; ${advice}`;
  if (packageNames.includes(`@multihop/${id}`)) return `@multihop/${id} is already a package of this workspace; ${advice}`;
  return undefined;
}

/**
 * The names of the workspace's packages (packages/*, apps/*, tools/*: the root package.json's
 * `workspaces`), read from the tree.
 * @param {Tree} tree
 * @returns {string[]}
 */
function workspacePackageNames(tree) {
  const root = JSON.parse(tree.read('package.json', 'utf-8') ?? '{}');
  const globs = Array.isArray(root.workspaces) ? root.workspaces : (root.workspaces?.packages ?? []);
  /** @type {string[]} */
  const names = [];
  for (const glob of globs) {
    if (!String(glob).endsWith('/*')) continue;
    const base = String(glob).slice(0, -2);
    for (const dir of tree.children(base)) {
      const text = tree.read(`${base}/${dir}/package.json`, 'utf-8');
      if (!text) continue;
      try {
        const name = JSON.parse(text).name;
        if (typeof name === 'string') names.push(name);
      } catch {
        // An unreadable package.json is npm's to report.
      }
    }
  }
  return names;
}

/**
 * Adds `"<name>": "<range>"` to the runner's dependencies, keys sorted as the packaging rules
 * sort them (dependencyRules.ts). The runner is a method host: it finds methods at run time, and
 * depends on every public method package so that `npm install @multihop/runner` brings them.
 * @param {Tree} tree
 * @param {string} name
 * @param {string} range
 * @returns {boolean} whether apps/runner/package.json exists (and now declares it)
 */
function addRunnerDependency(tree, name, range) {
  const text = tree.read(RUNNER_PACKAGE, 'utf-8');
  if (text === null) return false;
  const pkg = JSON.parse(text);
  const dependencies = { ...(pkg.dependencies ?? {}), [name]: range };
  pkg.dependencies = Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b)));
  tree.write(RUNNER_PACKAGE, `${JSON.stringify(pkg, null, 2)}\n`);
  return true;
}

/**
 * @param {Tree} tree Nx's virtual file tree
 * @param {{ name: string; engine?: 'langgraph' | 'xstate'; family?: string; paper?: string }} options
 */
function methodGenerator(tree, options) {
  const id = String(options.name ?? '').trim();
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(id)) {
    throw new Error(`method name "${id}" must be lower-case letters and digits separated by single dashes (e.g. mao-arag)`);
  }
  const engine = options.engine ?? 'langgraph';
  if (engine !== 'langgraph' && engine !== 'xstate') throw new Error(`--engine must be langgraph or xstate, got "${engine}"`);
  const target = `packages/${id}`;
  if (tree.exists(`${target}/package.json`)) throw new Error(`${target} already exists; a generator never overwrites a method`);
  const known = tree.root ? workspaceMethods(tree.root) : { methods: [], problems: [] };
  const clash = collision(id, known.methods, workspacePackageNames(tree));
  if (clash) throw new Error(clash);
  for (const problem of known.problems) console.warn(`warning: ${problem}`);

  const names = namesOf(id);
  /** @type {Record<string, string>} */
  const values = {
    ...names,
    __family__: options.family ?? id.toUpperCase(),
    __paper__: options.paper ?? `${id.toUpperCase()} (add the paper: title, venue or arXiv id)`,
    __engine__: engine,
    __GRAPH__: engine === 'xstate' ? 'machine.ts' : 'graph.ts',
    __SHAPE__: engine === 'xstate' ? 'state machine' : 'graph',
    // The engine's library is the package's peer, as in the workspace's own method packages; in
    // the order `npm run deps:sync` writes them (by name), so it finds nothing to rewrite.
    __PEERS__: Object.entries({ '@multihop/offline-model': '^0.1.0', zod: '^4.2.0', ...(engine === 'xstate' ? { xstate: '^5.33.3' } : { '@langchain/langgraph': '^1.7.3' }) })
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, range]) => `    "${name}": "${range}"`)
      .join(',\n'),
  };
  const TOKENS = /__(?:name|Name|camel|CONST|family|paper|engine|GRAPH|SHAPE|PEERS)__/g;
  /**
   * The template with the values in, each written as the file's syntax needs it at that place: the
   * family and paper (free text: "Press et al.'s …", "O'Brien") escaped inside a TypeScript string
   * literal and inside a JSON string, as they are in comments and Markdown.
   */
  const fill = (/** @type {string} */ text, /** @type {string} */ path = '') => {
    const free = (/** @type {string} */ token) => token === '__family__' || token === '__paper__';
    if (path.endsWith('.json')) return text.replace(TOKENS, (token) => (values[token] === undefined ? token : free(token) ? JSON.stringify(values[token]).slice(1, -1) : values[token]));
    if (!path.endsWith('.ts')) return text.replace(TOKENS, (token) => values[token] ?? token);
    return text
      .split('\n')
      .map((line) =>
        line.replace(TOKENS, (token, /** @type {number} */ at) => {
          const value = values[token];
          if (value === undefined || !free(token)) return value ?? token;
          // Inside a single-quoted literal when an odd number of unescaped quotes precede it on a line of code (not a comment's).
          const comment = /^\s*(\/\/|\/?\*)/.test(line);
          const quotes = (line.slice(0, at).match(/(?<!\\)'/g) ?? []).length;
          return !comment && quotes % 2 === 1 ? value.replace(/[\\']/g, (c) => `\\${c}`) : value;
        }),
      )
      .join('\n');
  };

  // Files shared by both engines, then the engine's own (graph.ts or machine.ts and the workflow).
  /** @type {Map<string, string>} */
  const files = new Map();
  for (const root of [join(__dirname, 'files', 'common'), join(__dirname, 'files', engine)]) {
    for (const file of templateFiles(root)) {
      const path = relative(root, file).split(sep).join('/').replace(/\.template$/, '');
      files.set(fill(path), fill(readFileSync(file, 'utf8'), path));
    }
  }
  // The README's usage example is examples/usage.ts verbatim (its sync test holds them together).
  const readme = files.get('README.md') ?? '';
  files.set('README.md', readme.replace('__USAGE__', (files.get('examples/usage.ts') ?? '').trimEnd()));
  for (const [path, content] of files) tree.write(`${target}/${path}`, content);
  const range = `^${JSON.parse(files.get('package.json') ?? '{}').version ?? '0.1.0'}`;
  const runner = addRunnerDependency(tree, `@multihop/${id}`, range);
  return () => {
    console.log(`\n${target}/: method "${id}" on ${engine}; \`npx multihop workflows\` lists it now.`);
    if (runner) {
      console.log(`${RUNNER_PACKAGE}: added "@multihop/${id}": "${range}" to dependencies (the runner finds methods at run time and depends on each, so the published CLI brings it).`);
    }
    console.log('Next:');
    console.log(`  npm install                       links @multihop/${id} into node_modules: its own tests import it by name (run this before them); commit package-lock.json with the folder`);
    console.log(`  npx nx test @multihop/${id}        its tests, including the conformance suite (src/manifest.test.ts)`);
    console.log(`  npx nx run @multihop/${id}:test:int  its end-to-end test on real HotpotQA questions and a LanceDB corpus`);
    console.log('  npx nx test @multihop/packaging   the package rules (exports, README example, declared dependencies)');
    console.log('  npm run typecheck');
    console.log(`To remove it: delete ${target}/ and the "@multihop/${id}" line of ${RUNNER_PACKAGE}, then \`npm install\` (\`git rm -r ${target}\` if it was committed).`);
    console.log('What to do next (loops, settings, prompts, docs, the router): tools/generators/README.md');
  };
}

module.exports = methodGenerator;
module.exports.default = methodGenerator;
module.exports.workspaceMethods = workspaceMethods;
module.exports.collision = collision;
