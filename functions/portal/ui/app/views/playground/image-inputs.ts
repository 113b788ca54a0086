/**
 * The playground's image inputs: which the operation takes, one drop zone for each, and each chosen file
 * sent as a direct upload as soon as it is chosen (its `upload:` reference goes into the request).
 */
import { h } from '../../dom';
import { type Operation, uploadFile } from '../../service';
import { dropZone } from '../../widgets';
import type { Picked, PlaygroundState, Slot } from './form';

/** The image inputs of each operation: the body field, its label, and how many it takes. */
export const SLOTS: Readonly<Record<Operation, readonly Slot[]>> = {
  generate: [],
  edit: [{ field: 'images', label: 'Input images (1 to 10)', max: 10 }],
  enhance: [{ field: 'image', label: 'Image to enhance', max: 1 }],
  remix: [
    { field: 'input_image', label: 'Input image', max: 1 },
    { field: 'reference_image', label: 'Style reference image', max: 1 },
  ],
};

/** The chosen files without a reference yet: still uploading, or failed. */
export const pendingInputs = ({ inputs }: PlaygroundState): Picked[] =>
  [...inputs.values()].flat().filter((item) => item.reference === null);

/** One drop zone per image input of the operation; each file is uploaded as soon as it is chosen. */
export const drawInputs = (state: PlaygroundState, inputPart: HTMLElement, refresh: () => void): void => {
  const { inputs } = state;
  const slots = SLOTS[state.operation];
  for (const field of [...inputs.keys()]) if (!slots.some((slot) => slot.field === field)) inputs.delete(field);
  inputPart.replaceChildren(
    ...slots.map((slot) => {
      const list = h('ul', { class: 'thumbs', 'aria-live': 'polite' });
      const drawList = () => {
        list.replaceChildren(
          ...(inputs.get(slot.field) ?? []).map((item) =>
            h(
              'li',
              {},
              h('img', { src: item.preview, alt: item.name }),
              h('span', {
                class: item.failed ? 'bad' : 'muted',
                text: item.failed ? item.failed : item.reference ? 'uploaded' : 'uploading…',
              }),
              h(
                'button',
                {
                  type: 'button',
                  class: 'secondary',
                  'aria-label': `Remove ${item.name}`,
                  onclick: () => {
                    inputs.set(
                      slot.field,
                      (inputs.get(slot.field) ?? []).filter((other) => other !== item),
                    );
                    drawList();
                    refresh();
                  },
                },
                'Remove',
              ),
            ),
          ),
        );
      };
      const zone = dropZone({
        id: `input-${slot.field}`,
        label: slot.label,
        hint: 'Choose or drop JPEG, PNG, WebP or HEIC files; each is sent as a direct upload (POST /uploads, then PUT).',
        multiple: slot.max > 1,
        onFiles: (files) => {
          const kept = slot.max > 1 ? (inputs.get(slot.field) ?? []) : [];
          const added = files.slice(0, Math.max(0, slot.max - kept.length)).map((file) => {
            const item: Picked = {
              name: file.name,
              preview: URL.createObjectURL(file),
              reference: null,
              failed: null,
              aspect: null,
            };
            const probe = new Image();
            probe.onload = () => {
              item.aspect = probe.naturalWidth / probe.naturalHeight;
              refresh();
            };
            probe.src = item.preview;
            uploadFile(file).then(
              (reference) => {
                item.reference = reference;
                drawList();
                refresh();
              },
              (error: unknown) => {
                item.failed = error instanceof Error ? error.message : String(error);
                drawList();
                refresh();
              },
            );
            return item;
          });
          inputs.set(slot.field, [...kept, ...added]);
          drawList();
          refresh();
        },
      });
      drawList();
      return h('div', { class: 'slot' }, zone, list);
    }),
  );
};
