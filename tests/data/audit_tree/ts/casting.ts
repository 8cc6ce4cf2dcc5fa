// TypeScript: casting steps.
/** CR 601.2c: choose targets after modes and X. */
export function chooseTargets(): void {}

/* CR 118.99: invented subrule */
export const costs = { rate: 118.5, note: "Rule 601.2f - determine the total cost" };
