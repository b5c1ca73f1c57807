// @ts-check
'use strict';
// `npx nx g @multihop/tools:method <name> [--engine langgraph|xstate]`: a method package that
// works as generated — its manifest lists one workflow, its agent calls one prompt that the
// offline model answers through the method's own handler, and its tests pass — and that the
// runner lists (`multihop workflows`) with no file outside the new folder touched.
// Plain JavaScript so Nx loads it without a TypeScript loader.
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join, relative, sep } = require('node:path');

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
 * @param {{ exists(path: string): boolean; write(path: string, content: string): void }} tree Nx's virtual file tree
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

  const names = namesOf(id);
  /** @type {Record<string, string>} */
  const values = {
    ...names,
    __family__: options.family ?? id.toUpperCase(),
    __paper__: options.paper ?? `${id.toUpperCase()} (add the paper: title, venue or arXiv id)`,
    __engine__: engine,
    __GRAPH__: engine === 'xstate' ? 'machine.ts' : 'graph.ts',
    __SHAPE__: engine === 'xstate' ? 'state machine' : 'graph',
    // The engine's library is the package's peer, as in the workspace's own method packages.
    __PEERS__: engine === 'xstate' ? '    "xstate": "^5.33.3",' : '    "@langchain/langgraph": "^1.7.3",',
  };
  const fill = (/** @type {string} */ text) => text.replace(/__(?:name|Name|camel|CONST|family|paper|engine|GRAPH|SHAPE|PEERS)__/g, (token) => values[token] ?? token);

  // Files shared by both engines, then the engine's own (graph.ts or machine.ts and the workflow).
  /** @type {Map<string, string>} */
  const files = new Map();
  for (const root of [join(__dirname, 'files', 'common'), join(__dirname, 'files', engine)]) {
    for (const file of templateFiles(root)) {
      const path = relative(root, file).split(sep).join('/').replace(/\.template$/, '');
      files.set(fill(path), fill(readFileSync(file, 'utf8')));
    }
  }
  // The README's usage example is examples/usage.ts verbatim (its sync test holds them together).
  const readme = files.get('README.md') ?? '';
  files.set('README.md', readme.replace('__USAGE__', (files.get('examples/usage.ts') ?? '').trimEnd()));
  for (const [path, content] of files) tree.write(`${target}/${path}`, content);
  return () => {
    console.log(`\n${target}: method "${id}" on ${engine}. \`npx multihop workflows\` lists it now; \`npx nx test @multihop/${id}\` runs its tests.`);
    console.log('Run `npm install` to link it into node_modules (for imports of @multihop/' + id + ' from other packages).');
  };
}

module.exports = methodGenerator;
module.exports.default = methodGenerator;
