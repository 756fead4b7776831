import { describe, expect, it } from 'vitest';
import { alwaysRedacted, redactedElements, redactionBoxes } from './redaction.js';

const element = (...rects: { left: number; top: number; width: number; height: number }[]) =>
  ({ getClientRects: () => rects.map((rect) => ({ ...rect, right: rect.left + rect.width, bottom: rect.top + rect.height })) }) as unknown as Element;

describe('redaction', () => {
  it('always covers passwords, card fields and elements marked data-pinpoints-redact', () => {
    expect(alwaysRedacted).toEqual(['input[type="password" i]', '[autocomplete*="cc-" i]', '[data-pinpoints-redact]']);
  });

  it('grows each box by its margin and clips it to the viewport', () => {
    const boxes = redactionBoxes([element({ left: 10, top: 20, width: 100, height: 30 }), element({ left: 1000, top: 700, width: 100, height: 100 })], { width: 1024, height: 720 });
    expect(boxes).toEqual([
      { x: 8, y: 18, width: 104, height: 34 },
      { x: 998, y: 698, width: 26, height: 22 },
    ]);
  });

  it('drops elements that are not on screen or have no size', () => {
    const boxes = redactionBoxes([element({ left: 0, top: 900, width: 10, height: 10 }), element({ left: 5, top: 5, width: 0, height: 10 })], { width: 1024, height: 720 });
    expect(boxes).toEqual([]);
  });

  it('skips a selector the browser cannot parse and keeps the others', () => {
    const root = {
      querySelectorAll: (selector: string) => {
        if (selector === '[[bad') throw new SyntaxError('bad selector');
        return selector === '.iban' ? [element()] : [];
      },
    } as unknown as ParentNode;
    const found = redactedElements(root, ['[[bad', '.iban']);
    expect([found.elements.length, found.invalid]).toEqual([1, ['[[bad']]);
  });
});
