import { checkPhases, type PhaseDefinition, type PhaseState, readyPhases } from '../../../../bin/test/schedule';

const PHASES: PhaseDefinition[] = [
  { name: 'lint', needs: [] },
  { name: 'typecheck', needs: [] },
  { name: 'synth', needs: ['lint', 'typecheck'] },
  { name: 'integration', needs: ['lint', 'typecheck'] },
  { name: 'assets', needs: ['synth'] },
  { name: 'unit', needs: ['lint', 'typecheck'] },
];

const statesOf = (given: Record<string, PhaseState>) =>
  new Map(PHASES.map((phase): [string, PhaseState] => [phase.name, given[phase.name] ?? 'waiting']));

const names = (phases: PhaseDefinition[]) => phases.map((phase) => phase.name);

describe('which phases of npm test start now', () => {
  it('starts what needs nothing, as many as there are free slots, in the table order', () => {
    expect(names(readyPhases(PHASES, statesOf({}), 2))).toEqual(['lint', 'typecheck']);
    expect(names(readyPhases(PHASES, statesOf({}), 1))).toEqual(['lint']);
    expect(names(readyPhases(PHASES, statesOf({ lint: 'running' }), 1))).toEqual(['typecheck']);
  });

  it('starts a phase only once every phase it needs has passed', () => {
    expect(names(readyPhases(PHASES, statesOf({ lint: 'passed', typecheck: 'running' }), 2))).toEqual([]);
    expect(names(readyPhases(PHASES, statesOf({ lint: 'passed', typecheck: 'passed' }), 2))).toEqual([
      'synth',
      'integration',
    ]);
    const synthRunning = statesOf({ lint: 'passed', typecheck: 'passed', synth: 'running', integration: 'running' });
    expect(names(readyPhases(PHASES, synthRunning, 1))).toEqual(['unit']);
    const synthPassed = statesOf({ lint: 'passed', typecheck: 'passed', synth: 'passed', integration: 'running' });
    expect(names(readyPhases(PHASES, synthPassed, 1))).toEqual(['assets']);
  });

  it('starts nothing more once a phase has failed', () => {
    expect(readyPhases(PHASES, statesOf({ lint: 'failed' }), 2)).toEqual([]);
    expect(readyPhases(PHASES, statesOf({ lint: 'passed', typecheck: 'passed', synth: 'failed' }), 2)).toEqual([]);
  });

  it('takes a needed phase the run does not list as done (a run naming only some phases)', () => {
    const only = PHASES.filter((phase) => phase.name === 'assets');
    expect(names(readyPhases(only, new Map([['assets', 'waiting']]), 2))).toEqual(['assets']);
  });

  it('refuses a table that could never finish: a phase twice, or one needing a phase not listed before it', () => {
    expect(() => checkPhases(PHASES)).not.toThrow();
    expect(() => checkPhases([...PHASES, { name: 'lint', needs: [] }])).toThrow('phase lint is listed twice');
    expect(() =>
      checkPhases([
        { name: 'a', needs: ['b'] },
        { name: 'b', needs: ['a'] },
      ]),
    ).toThrow('phase a needs b, which is not listed before it');
  });
});
