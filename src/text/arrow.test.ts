import { describe, expect, it } from 'vitest';
import { changeArrow } from './arrow.js';

describe('changeArrow', () => {
  it.each([
    ['Latin on both sides: plain', 'Riverside Park', 'Mill Lane', 'Riverside Park → Mill Lane'],
    ['Arabic on both sides: marked', 'ستاد البتراء', 'ستاد عمّان الدولي', 'ستاد البتراء \u200E→\u200E ستاد عمّان الدولي'],
    ['Arabic on one side: marked', 'none', 'ستاد عمّان', 'none \u200E→\u200E ستاد عمّان'],
    ['a name with its Arabic name after it', 'Riverside Lions', 'Riverside Lions FC / أسود ريفرسايد', 'Riverside Lions \u200E→\u200E Riverside Lions FC / أسود ريفرسايد'],
    ['Hebrew is right to left too', 'A', 'אבג', 'A \u200E→\u200E אבג'],
  ])('%s', (_name, before, after, line) => {
    expect(changeArrow(before, after)).toBe(line);
  });
});
