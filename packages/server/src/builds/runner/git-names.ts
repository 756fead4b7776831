/** A full commit id: SHA-1 (40 hex digits) or SHA-256 (64). */
export function isCommitId(text: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text);
}

/** Whether a branch name is one git accepts (git-check-ref-format's rules) and safe on a command line. */
export function isBranchName(name: string): boolean {
  if (name === '' || name.length > 255 || name.startsWith('-') || name === '@') return false;
  if (/[\0-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** Whether text holds a C0 control character or DEL (a line break could split a header or a command). */
export function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
