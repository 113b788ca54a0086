/**
 * The playground's model fields: the base model, then only the fields that model accepts (resolution,
 * aspect ratio, quality, exact size), as GET /models describes it; a pinned operation shows what it is
 * pinned to instead.
 */
import { SIZE_PATTERN } from '../../../../../domain/catalog/size-text';
import { h } from '../../dom';
import type { BaseModel } from '../../service';
import { isPinned, labelled, option, type PlaygroundState } from './form';

/** The fields drawn for the chosen model, each null when it takes none (all null for a pinned operation). */
export interface ModelControls {
  resolutionSelect: HTMLSelectElement | null;
  aspectSelect: HTMLSelectElement | null;
  qualitySelect: HTMLSelectElement | null;
  sizeInput: HTMLInputElement | null;
}

export interface ModelFields {
  /** Draws the fields again for the operation and the chosen model. */
  draw(): void;
  /** The chosen base model; undefined for a pinned operation. */
  chosen(): BaseModel | undefined;
  controls(): ModelControls;
}

export const modelFields = (state: PlaygroundState, modelPart: HTMLElement, refresh: () => void): ModelFields => {
  let modelSelect: HTMLSelectElement | null = null;
  let resolutionSelect: HTMLSelectElement | null = null;
  let aspectSelect: HTMLSelectElement | null = null;
  let qualitySelect: HTMLSelectElement | null = null;
  let sizeInput: HTMLInputElement | null = null;

  const chosenModel = (): BaseModel | undefined =>
    state.models?.models.find((model) => model.id === modelSelect?.value);

  /** The base model's own fields: only those it accepts. */
  const drawModelFields = (): void => {
    const { models, operation } = state;
    if (!models) return;
    if (isPinned(operation)) {
      modelSelect = resolutionSelect = aspectSelect = qualitySelect = null;
      sizeInput = null;
      modelPart.replaceChildren(
        h('p', {
          class: 'muted',
          text: `${operation} is pinned to ${models.pinned.base_model} at ${models.pinned.resolution} (served by: ${models.pinned.served_by}); it takes no model, resolution or aspect ratio.`,
        }),
      );
      return;
    }
    const usable = models.models.filter((model) => (model.operations as string[]).includes(operation));
    const previous = modelSelect?.value;
    const current = usable.find((model) => model.id === previous) ?? usable.find((model) => model.default) ?? usable[0];
    modelSelect = h(
      'select',
      { id: 'base-model' },
      ...usable.map((model) =>
        option(model.id, `${model.id}${model.default ? ' (default)' : ''} · ${model.served_by}`, model === current),
      ),
    );
    const model = current;
    resolutionSelect = h(
      'select',
      { id: 'resolution' },
      ...(model?.resolutions ?? []).map((value, index) => option(value, value, index === 0)),
    );
    aspectSelect = h(
      'select',
      { id: 'aspect-ratio' },
      ...(model?.aspect_ratios ?? []).map((value) => option(value, value, value === model?.default_aspect_ratio)),
    );
    qualitySelect =
      model && model.qualities.length > 0
        ? h('select', { id: 'quality' }, ...model.qualities.map((value) => option(value, value, value === 'auto')))
        : null;
    sizeInput = model?.size
      ? h('input', {
          id: 'size',
          type: 'text',
          inputmode: 'numeric',
          pattern: SIZE_PATTERN.source,
          placeholder: 'e.g. 1024x768',
        })
      : null;
    const serving =
      model?.served_by === 'sandbox'
        ? ' Served by the sandbox engine here: images made locally, not by a real model.'
        : '';
    modelPart.replaceChildren(
      labelled('base-model', 'Base model', modelSelect, `Metering: ${model?.pricing.metering ?? ''}.${serving}`),
      labelled('resolution', 'Resolution', resolutionSelect),
      labelled('aspect-ratio', 'Aspect ratio', aspectSelect),
      ...(qualitySelect ? [labelled('quality', 'Quality', qualitySelect)] : []),
      ...(sizeInput
        ? [
            labelled(
              'size',
              'Exact size (optional)',
              sizeInput,
              'Width x height in pixels; replaces the 1K tier and the aspect ratio.',
            ),
          ]
        : []),
    );
    modelSelect.addEventListener('change', () => {
      drawModelFields();
      refresh();
    });
  };

  return {
    draw: drawModelFields,
    chosen: chosenModel,
    controls: () => ({ resolutionSelect, aspectSelect, qualitySelect, sizeInput }),
  };
};
