/**
 * What the parts of the playground's form share (../playground.ts draws them): the page's state, read by
 * each part whenever it draws or the request is built, and the small control helpers.
 */
import { h } from '../../dom';
import type { ModelList, Operation } from '../../service';
import type { Profile } from '../../types';

/** An image input of an operation: the body field, its label, and how many it takes. */
export interface Slot {
  field: 'images' | 'image' | 'input_image' | 'reference_image';
  label: string;
  max: number;
}

/** A chosen file: its preview, and its `upload:` reference once the direct upload is done. */
export interface Picked {
  name: string;
  preview: string;
  reference: string | null;
  failed: string | null;
  /** width / height, read from the preview (what `aspect_ratio: auto` follows). */
  aspect: number | null;
}

/** The page's state: what GET /models and the profile list said, the operation, the chosen files. */
export interface PlaygroundState {
  models: ModelList | null;
  profiles: Profile[];
  operation: Operation;
  /** The chosen files of each image input of the operation. */
  readonly inputs: Map<Slot['field'], Picked[]>;
}

/** enhance and remix are pinned to one model at one resolution: they take no model fields. */
export const isPinned = (operation: Operation): boolean => operation === 'enhance' || operation === 'remix';

export const option = (value: string, label: string, selected: boolean): HTMLOptionElement =>
  h('option', { value, selected }, label);

export const labelled = (id: string, text: string, control: HTMLElement, hint?: string): HTMLElement =>
  h(
    'div',
    { class: 'control' },
    h('label', { for: id, text }),
    control,
    hint ? h('p', { class: 'muted', text: hint }) : null,
  );
