import { describe, expect, it } from 'vitest';
import { Slicer } from '../../../../src/core/util/Slicer';

describe('Slicer', () => {
  describe('maybeYield', () => {
    it('pauses only once the budget is spent', async () => {
      const slicer = new Slicer(1_000);
      expect(await slicer.maybeYield()).toBe(false);
      expect(slicer.yields).toBe(0);
    });

    it('hands the event loop back once the budget is spent', async () => {
      const slicer = new Slicer(0);
      let timerRan = false;
      setTimeout(() => (timerRan = true), 0);
      expect(await slicer.maybeYield()).toBe(true);
      expect(timerRan).toBe(true);
    });

    describe('when more urgent work is under way', () => {
      it('waits until it is done before the next slice', async () => {
        let release: () => void = () => undefined;
        const urgent = new Promise<void>((resolve) => (release = resolve));
        const slicer = new Slicer(0, () => urgent);
        let resumed = false;
        const pause = slicer.maybeYield().then(() => (resumed = true));
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(resumed).toBe(false);
        release();
        await pause;
        expect(resumed).toBe(true);
      });
    });
  });
});
