/**
 * Which phases of `npm test` may run now (bin/test/run-phases.ts). A phase runs once every phase it needs
 * has passed; of those ready, the first in the table's order goes first, and the table lists the phases
 * that start the longest chains first (the synthesis before the suites that read its artefacts), so the
 * slots stay busy to the end. Nothing new starts once a phase has failed.
 */

export interface PhaseDefinition {
  /** The npm script that runs it (`npm run <name>` alone reruns it). */
  name: string;
  /** Phases that must have passed before it starts. */
  needs: string[];
}

export type PhaseState = 'waiting' | 'running' | 'passed' | 'failed';

/**
 * The phases to start now, at most `freeSlots`, in the table's order. A phase whose needs include a phase
 * not in the table (a run naming only some phases) waits for nothing there: what the run left out is
 * taken as done.
 */
export const readyPhases = (
  phases: PhaseDefinition[],
  states: ReadonlyMap<string, PhaseState>,
  freeSlots: number,
): PhaseDefinition[] => {
  if ([...states.values()].includes('failed')) return [];
  const named = new Set(phases.map((phase) => phase.name));
  return phases
    .filter((phase) => states.get(phase.name) === 'waiting')
    .filter((phase) => phase.needs.every((need) => !named.has(need) || states.get(need) === 'passed'))
    .slice(0, Math.max(0, freeSlots));
};

/** A phase list must name each phase once and need only phases listed before it (so it cannot deadlock). */
export const checkPhases = (phases: PhaseDefinition[]): void => {
  const seen = new Set<string>();
  for (const phase of phases) {
    if (seen.has(phase.name)) throw new Error(`phase ${phase.name} is listed twice`);
    for (const need of phase.needs)
      if (!seen.has(need)) throw new Error(`phase ${phase.name} needs ${need}, which is not listed before it`);
    seen.add(phase.name);
  }
};
