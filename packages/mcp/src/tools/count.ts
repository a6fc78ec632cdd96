/** `n noun`, with the noun in the plural unless n is 1. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
