/**
 * What a LoRA learns its subject as (functions/domain/profiles/lora-training.ts): a random token, never the
 * profile id, and a caption per photo of the token and the subject's class; a prompt names the subject with
 * the same words (engine/identity-prompt.ts), so what was trained is what is asked for.
 */
import { loraSubjectWords } from '../../../../functions/domain/engine/identity-prompt';
import { loraCaption, newLoraToken } from '../../../../functions/domain/profiles/lora-training';

describe('LoRA tokens and captions', () => {
  it('a token is 8 lowercase letters drawn from the random bytes', () => {
    const bytes = Buffer.from([0, 1, 25, 26, 51, 52, 200, 255]);
    expect(newLoraToken(() => bytes)).toBe('abzazasv');
    for (let index = 0; index < 20; index += 1) expect(newLoraToken()).toMatch(/^[a-z]{8}$/);
    expect(new Set(Array.from({ length: 50 }, () => newLoraToken())).size).toBe(50);
  });

  it('a caption names the token and the class the face analyser found (person unless an animal)', () => {
    expect(loraCaption('qwertyui', 'person')).toBe('a photo of qwertyui person');
    expect(loraCaption('qwertyui', 'animal')).toBe('a photo of qwertyui animal');
    expect(loraCaption('qwertyui', undefined)).toBe('a photo of qwertyui person');
  });

  it('a prompt names the subject with the words its captions taught', () => {
    for (const kind of ['person', 'animal', undefined] as const)
      expect(loraCaption('qwertyui', kind)).toBe(`a photo of ${loraSubjectWords('qwertyui', kind)}`);
  });
});
