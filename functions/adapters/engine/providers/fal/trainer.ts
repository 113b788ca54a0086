/**
 * Read first: fal's LoRA trainer for FLUX.2 [dev] (`fal-ai/flux-2-trainer`) behind the trainer port
 * (domain/profiles/lora-training.ts), on the same queue and webhook as fal's image endpoints (queue.ts,
 * webhook.ts, the generic route POST /v2/service/providers/fal/webhook).
 *
 * Field names, from @fal-ai/client 1.10.1 src/types/endpoints.d.ts (EndpointTypeMap['fal-ai/flux-2-trainer']):
 * - input `Flux2TrainerInput`: `image_data_url` (a zip of images, each with an optional `ROOT.txt` caption),
 *   `steps` (default 1 000), `learning_rate` (default 5e-5), `default_caption`, `output_lora_format`;
 * - output `Flux2TrainerOutput`: `diffusers_lora_file` and `config_file`, each a `File` with `url`.
 * The queue protocol is the image endpoints' (fal.ts): submit with `fal_webhook` → request_id and its URLs,
 * status (IN_QUEUE with queue_position, IN_PROGRESS, COMPLETED), result, cancel.
 *
 * fal's copies: fal keeps a request's input and output payloads and its output files on its CDN. Its platform
 * API deletes them: `DELETE https://api.fal.ai/v1/models/requests/{request_id}/payloads` ("Delete request
 * payloads": the IO payloads and the CDN output files, not input files; an admin API key is required;
 * https://fal.ai/docs/platform-apis/v1/models/requests/payloads). It is called once our copy of the LoRA is
 * stored, after a failure, and when the profile is deleted. With a key that is not an admin key fal refuses
 * it (401/403): logged, and the copies stay until fal's own retention removes them (docs/identity.md).
 * Our own zip is not an input file at fal (fal fetches it from our presigned URL); it is deleted with the profile.
 */
import * as v from 'valibot';
import type { LoraTrainer, LoraTrainingResult, LoraTrainingTicket } from '../../../../domain/profiles/lora-training';
import { safeRequest } from '../../../net/safe-http';
import { withApiKey } from '../provider';
import { defaultTransport, sendWithRetries } from '../provider-http';
import type { LoraTrainerAdapter } from '../queued-provider';
import { parseAnswer, StatusAnswerSchema, SubmitAnswerSchema } from './answers';
import { allowedMediaUrl } from './media';
import { errorDetail, falHeaders, ok, onQueue, PROVIDER, providerError } from './queue';
import { zipStored } from './zip';

export const FAL_TRAINER_MODEL = 'fal-ai/flux-2-trainer';

/** Flux2TrainerOutput, what is read of it: the LoRA's URL. */
const TrainerOutputSchema = v.object({
  diffusers_lora_file: v.object({ url: v.pipe(v.string(), v.minLength(1)) }),
});

/** A LoRA of FLUX.2 [dev] at fal's default rank is a few hundred MB; nothing larger is downloaded. */
const LORA_MAX_BYTES = 1024 * 1024 * 1024;
const LORA_DOWNLOAD_TIMEOUT_MS = 600_000;
/** How long fal may fetch the zip from our presigned URL: a queued training starts within the hour. */
const ZIP_URL_TTL_SECONDS = 6 * 3600;
const CALL_TIMEOUT_MS = 30_000;

export const falTrainer: LoraTrainerAdapter = (options): LoraTrainer => {
  const queueUrl = options.queueUrl.replace(/\/+$/, '');
  const transport = defaultTransport(options.transport);
  const call = (url: string, method: 'GET' | 'POST' | 'PUT', body?: string, notProcessed?: readonly number[]) =>
    withApiKey(options.apiKey, (apiKey) =>
      sendWithRetries(
        transport,
        {
          provider: PROVIDER,
          url: onQueue(url, queueUrl, method === 'POST' ? 'submit' : 'status or result'),
          method,
          headers: falHeaders(apiKey),
          ...(body !== undefined && { body }),
          ...(notProcessed && { notProcessed }),
        },
        AbortSignal.timeout(CALL_TIMEOUT_MS),
      ),
    );

  return {
    steps: options.steps,
    async submit(training) {
      // fal reads `NAME.txt` as the caption of `NAME.<ext>` (Flux2TrainerInput.image_data_url's description).
      const files = training.photos.flatMap((photo, index) => [
        { name: `${photo.name}.jpg`, data: photo.data },
        { name: `${photo.name}.txt`, data: Buffer.from(training.captions[index] ?? '', 'utf8') },
      ]);
      const zipKey = await options.store(
        training.accountId,
        training.profileId,
        'training-set.zip',
        zipStored(files),
        'application/zip',
      );
      const input = {
        image_data_url: await options.presign(zipKey, ZIP_URL_TTL_SECONDS),
        steps: options.steps,
        learning_rate: options.learningRate,
      };
      const submittedAt = options.clock();
      const answer = await call(
        `${queueUrl}/${FAL_TRAINER_MODEL}?fal_webhook=${encodeURIComponent(training.webhookUrl)}`,
        'POST',
        JSON.stringify(input),
        [429],
      );
      if (!ok(answer)) throw providerError(answer, `submit to ${FAL_TRAINER_MODEL}`);
      const queued = parseAnswer(SubmitAnswerSchema, answer, 'submit');
      return {
        requestId: queued.request_id,
        model: FAL_TRAINER_MODEL,
        statusUrl: onQueue(queued.status_url, queueUrl, 'status'),
        responseUrl: onQueue(queued.response_url, queueUrl, 'result'),
        cancelUrl: onQueue(queued.cancel_url, queueUrl, 'cancel'),
        submittedAt,
        steps: options.steps,
      } satisfies LoraTrainingTicket;
    },
    async status(ticket) {
      const answer = await call(ticket.statusUrl, 'GET');
      if (!ok(answer)) throw providerError(answer, `the status of training ${ticket.requestId}`);
      const status = parseAnswer(StatusAnswerSchema, answer, 'status');
      if (status.status === 'IN_QUEUE')
        return {
          state: 'IN_QUEUE',
          ...(typeof status.queue_position === 'number' && { queuePosition: status.queue_position }),
        };
      return { state: status.status };
    },
    async result(ticket): Promise<LoraTrainingResult> {
      const answer = await call(ticket.responseUrl, 'GET');
      // A training fal could not do answers its error on the result (fal's errors page: `detail`).
      if (answer.status >= 400 && answer.status < 500) return { ok: false, message: errorDetail(answer).message };
      if (!ok(answer)) throw providerError(answer, `the result of training ${ticket.requestId}`);
      const output = parseAnswer(TrainerOutputSchema, answer, 'result');
      return { ok: true, loraUrl: output.diffusers_lora_file.url };
    },
    async keepLora(accountId, profileId, loraUrl) {
      const url = allowedMediaUrl(loraUrl, options.media, queueUrl);
      const answer = await safeRequest({
        url,
        method: 'GET',
        timeoutMs: LORA_DOWNLOAD_TIMEOUT_MS,
        maxResponseBytes: LORA_MAX_BYTES,
        maxRedirects: 0,
        allowLoopback: options.media.allowLoopback,
      });
      if (answer.status !== 200) throw new Error(`fal's LoRA file answered HTTP ${answer.status}`);
      return options.store(accountId, profileId, 'lora.safetensors', answer.body, 'application/octet-stream');
    },
    async deleteCopies(ticket) {
      const url = `${options.platformUrl.replace(/\/+$/, '')}/models/requests/${encodeURIComponent(ticket.requestId)}/payloads`;
      try {
        const answer = await withApiKey(options.apiKey, (apiKey) =>
          sendWithRetries(
            transport,
            { provider: PROVIDER, url, method: 'DELETE', headers: falHeaders(apiKey) },
            AbortSignal.timeout(CALL_TIMEOUT_MS),
          ),
        );
        if (!ok(answer))
          options.log("fal refused to delete a training's files (an admin key is needed)", {
            request_id: ticket.requestId,
            status: answer.status,
          });
      } catch (error) {
        options.log("could not ask fal to delete a training's files", {
          request_id: ticket.requestId,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
    async cancel(ticket) {
      try {
        const answer = await call(ticket.cancelUrl, 'PUT');
        // ALREADY_COMPLETED (a finished training) answers 400: nothing to stop.
        if (!ok(answer) && answer.status !== 400)
          options.log('fal refused to cancel a training', { request_id: ticket.requestId, status: answer.status });
      } catch (error) {
        options.log('could not ask fal to cancel a training', {
          request_id: ticket.requestId,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
  };
};
