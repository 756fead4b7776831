// @ts-check
// The server's folders in layers (docs/architecture.md, "Inside the server"): a folder may
// import its own files and folders of a lower layer, never one of its own layer or above.
// The top-level files compose everything and nothing imports them.
import { dirname, relative, resolve, sep } from 'node:path';

/** Top to bottom; folders of one layer do not import each other. */
export const serverLayers = [
  ['settings'],
  ['http'],
  ['operations', 'backup'],
  ['builds', 'hosting'],
  ['pinpoints'],
  ['forms', 'delivery'],
  ['auth', 'contents', 'deploys', 'health', 'observability', 'site-rules', 'sites', 'webhooks'],
  ['ratelimit', 'secrets'],
  ['net'],
  ['store'],
  ['lib'],
];

const rankOf = new Map(serverLayers.flatMap((folders, rank) => folders.map((folder) => [folder, rank])));

/** The top folder of `path` under `root`, '' for a file of `root` itself, null outside it. */
function topFolder(root, path) {
  const inside = relative(root, path);
  if (inside.startsWith('..') || inside === '') return null;
  const parts = inside.split(sep);
  return parts.length === 1 ? '' : parts[0];
}

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: { type: 'problem', schema: [], docs: { description: 'server folders import only folders of lower layers (docs/architecture.md)' } },
  create(context) {
    const root = resolve(context.cwd, 'packages/server/src');
    const from = topFolder(root, context.filename);
    if (from === null) return {};
    const fromRank = from === '' ? -1 : rankOf.get(from);
    const check = (/** @type {any} */ node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      if (fromRank === undefined) {
        context.report({ node: source, message: `the folder ${from}/ has no layer: add it to eslint/server-layers.js and docs/architecture.md` });
        return;
      }
      const to = topFolder(root, resolve(dirname(context.filename), source.value));
      if (to === null || to === from) return;
      if (to === '') {
        context.report({ node: source, message: `${from}/ imports ${source.value}, a top-level file that composes the server: nothing below it may` });
        return;
      }
      const toRank = rankOf.get(to);
      if (toRank === undefined) context.report({ node: source, message: `the folder ${to}/ has no layer: add it to eslint/server-layers.js and docs/architecture.md` });
      else if (toRank <= fromRank) context.report({ node: source, message: `${from}/ may not import ${to}/: ${toRank === fromRank ? 'a folder of its own layer' : 'a folder above it'} (docs/architecture.md, "Inside the server")` });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
