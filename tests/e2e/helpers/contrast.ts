// WCAG contrast of text as the browser draws it: the text's colour against the background it sits
// on (ancestors' backgrounds blended over each other, their alpha included).
import type { Page } from 'playwright-core';

export interface ContrastReading {
  text: string;
  ratio: number;
}

/** The contrast of each element matching `selector` that has text of its own, lowest first. */
export async function contrastOf(page: Page, selector: string): Promise<ContrastReading[]> {
  const readings = await page.evaluate((sel) => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba => {
      const parts = value.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, value.startsWith('rgba') ? (parts[3] ?? 1) : 1];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3] + bottom[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: 0 | 1 | 2): number => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const background = (el: Element | null): Rgba => {
      const layers: Rgba[] = [];
      for (let node = el; node !== null; node = node.parentElement) layers.push(parse(getComputedStyle(node).backgroundColor));
      let colour: Rgba = [255, 255, 255, 1];
      for (const layer of layers.reverse()) colour = over(layer, colour);
      return colour;
    };
    const luminance = ([r, g, b]: Rgba): number => {
      const channel = (v: number): number => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const out: { text: string; ratio: number }[] = [];
    for (const el of Array.from(document.querySelectorAll(sel))) {
      const own = Array.from(el.childNodes).filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? '').join('').trim();
      if (own === '' || (el as HTMLElement).offsetParent === null) continue;
      const style = getComputedStyle(el);
      const bg = background(el);
      const fg = over(parse(style.color), bg);
      const [light, dark] = [luminance(fg), luminance(bg)].sort((a, b) => b - a) as [number, number];
      out.push({ text: own.slice(0, 40), ratio: Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100 });
    }
    return out;
  }, selector);
  return readings.sort((a, b) => a.ratio - b.ratio);
}
