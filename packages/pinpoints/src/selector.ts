/**
 * A CSS selector that finds `element` again on the same page: its `id` when that is
 * unique, else a path of `tag:nth-of-type(n)` steps up to the nearest ancestor with a
 * unique id (or the body). Class names are left out on purpose: they change with every
 * build of a CSS-in-JS site, ids and structure much less.
 */
export function stableSelector(element: Element, maxLength = 1000): string {
  const steps: string[] = [];
  for (let node: Element | null = element; node !== null && node !== node.ownerDocument.documentElement; node = node.parentElement) {
    const id = uniqueIdSelector(node);
    if (id !== null) {
      steps.unshift(id);
      break;
    }
    if (node.localName === 'body') {
      steps.unshift('body');
      break;
    }
    steps.unshift(step(node));
  }
  if (steps.length === 0) steps.push('html');
  let selector = steps.join(' > ');
  // A very deep element: keep the end of the path, which still names it within its parents.
  while (selector.length > maxLength && steps.length > 1) {
    steps.shift();
    selector = steps.join(' > ');
  }
  return selector.slice(0, maxLength);
}

function uniqueIdSelector(node: Element): string | null {
  if (node.id === '') return null;
  const selector = `#${CSS.escape(node.id)}`;
  try {
    return node.ownerDocument.querySelectorAll(selector).length === 1 ? selector : null;
  } catch {
    return null;
  }
}

function step(node: Element): string {
  const tag = CSS.escape(node.localName);
  const parent = node.parentElement;
  if (parent === null) return tag;
  const sameTag = Array.from(parent.children).filter((sibling) => sibling.localName === node.localName);
  return sameTag.length === 1 ? tag : `${tag}:nth-of-type(${sameTag.indexOf(node) + 1})`;
}
