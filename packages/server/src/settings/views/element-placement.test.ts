import { describe, expect, it } from 'vitest';
import { elementPlacement } from './element-placement.js';

describe("the picked element's box on the screenshot", () => {
  it('is the element in fractions of the viewport the screenshot shows', () => {
    expect(elementPlacement({ viewport: '1000x500', elementBox: { x: 100, y: 50, width: 300, height: 100 } })).toEqual({ left: 0.1, top: 0.1, width: 0.3, height: 0.2 });
  });

  it('is cut to the viewport when the element was partly scrolled out of view', () => {
    expect(elementPlacement({ viewport: '1000x500', elementBox: { x: -100, y: 400, width: 300, height: 200 } })).toEqual({ left: 0, top: 0.8, width: 0.2, height: 0.2 });
  });

  it('is not drawn without a box, without a viewport, or when the element was wholly out of view', () => {
    expect(elementPlacement({ viewport: '1000x500', elementBox: null })).toBeNull();
    expect(elementPlacement({ viewport: null, elementBox: { x: 0, y: 0, width: 10, height: 10 } })).toBeNull();
    expect(elementPlacement({ viewport: '1000x500', elementBox: { x: 0, y: 600, width: 10, height: 10 } })).toBeNull();
  });
});
