/** Generated from the service's OpenAPI document by openapi-typescript: do not edit (npm run generate -w clients/typescript). */

export interface paths {
    "/v2/service/edit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit 1-10 images from a prompt
         * @description Edits the input images by a text prompt; profiles named in `profile_ids` or as `[[<profile_id>]]` in the prompt keep their identity.
         *
         *     Synchronous by default (200 with the result); with `async: true` the answer is 202 with a job handle, polled at `poll_url` or delivered to `callback_url`. The floor price is reserved before any work and settled to the final price, or released on failure. `client_request_id` makes the submit idempotent: a repeat answers the original with `Idempotent-Replayed: true` and charges nothing.
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["edit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/edit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit 1-10 images from a prompt
         * @deprecated
         * @description Edits the input images by a text prompt; profiles named in `profile_ids` or as `[[<profile_id>]]` in the prompt keep their identity.
         *
         *     Synchronous by default (200 with the result); with `async: true` the answer is 202 with a job handle, polled at `poll_url` or delivered to `callback_url`. The floor price is reserved before any work and settled to the final price, or released on failure. `client_request_id` makes the submit idempotent: a repeat answers the original with `Idempotent-Replayed: true` and charges nothing.
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["edit_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate images from a prompt
         * @description Creates images from a prompt with no input image; profiles are referenced only as `[[<profile_id>]]` in the prompt.
         *
         *     Synchronous by default (200 with the result); with `async: true` the answer is 202 with a job handle, polled at `poll_url` or delivered to `callback_url`. The floor price is reserved before any work and settled to the final price, or released on failure. `client_request_id` makes the submit idempotent: a repeat answers the original with `Idempotent-Replayed: true` and charges nothing.
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["generate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate images from a prompt
         * @deprecated
         * @description Creates images from a prompt with no input image; profiles are referenced only as `[[<profile_id>]]` in the prompt.
         *
         *     Synchronous by default (200 with the result); with `async: true` the answer is 202 with a job handle, polled at `poll_url` or delivered to `callback_url`. The floor price is reserved before any work and settled to the final price, or released on failure. `client_request_id` makes the submit idempotent: a repeat answers the original with `Idempotent-Replayed: true` and charges nothing.
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["generate_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/enhance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enhance one image (2K)
         * @description Improves one image; pinned to the default base model at 2K (`base_model`, `aspect_ratio` and `resolution` are refused).
         *
         *     Synchronous by default (200 with the result); with `async: true` the answer is 202 with a job handle, polled at `poll_url` or delivered to `callback_url`. The floor price is reserved before any work and settled to the final price, or released on failure. `client_request_id` makes the submit idempotent: a repeat answers the original with `Idempotent-Replayed: true` and charges nothing.
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["enhance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/enhance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enhance one image (2K)
         * @deprecated
         * @description Improves one image; pinned to the default base model at 2K (`base_model`, `aspect_ratio` and `resolution` are refused).
         *
         *     Synchronous by default (200 with the result); with `async: true` the answer is 202 with a job handle, polled at `poll_url` or delivered to `callback_url`. The floor price is reserved before any work and settled to the final price, or released on failure. `client_request_id` makes the submit idempotent: a repeat answers the original with `Idempotent-Replayed: true` and charges nothing.
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["enhance_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/remix": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remix an image in the style of another
         * @description Renders the content of `input_image` in the style of `reference_image`, at 2K in the input’s aspect ratio.
         *
         *     Synchronous by default (200 with the result); with `async: true` the answer is 202 with a job handle, polled at `poll_url` or delivered to `callback_url`. The floor price is reserved before any work and settled to the final price, or released on failure. `client_request_id` makes the submit idempotent: a repeat answers the original with `Idempotent-Replayed: true` and charges nothing.
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["remix"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/remix": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remix an image in the style of another
         * @deprecated
         * @description Renders the content of `input_image` in the style of `reference_image`, at 2K in the input’s aspect ratio.
         *
         *     Synchronous by default (200 with the result); with `async: true` the answer is 202 with a job handle, polled at `poll_url` or delivered to `callback_url`. The floor price is reserved before any work and settled to the final price, or released on failure. `client_request_id` makes the submit idempotent: a repeat answers the original with `Idempotent-Replayed: true` and charges nothing.
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["remix_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a large input directly
         * @description For an input too large to send inline (request bodies are limited to 6 MB): answers a presigned URL that takes a PUT of exactly `size_bytes` bytes of `content_type` (up to 50 MiB) for 15 minutes, and the `reference` (`upload:<upload_id>`) to send wherever an image input is accepted. The upload belongs to this account (another account’s reference is 404) and serves for 24 h after it arrives; it is checked like any input when used.
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["createUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a large input directly
         * @deprecated
         * @description For an input too large to send inline (request bodies are limited to 6 MB): answers a presigned URL that takes a PUT of exactly `size_bytes` bytes of `content_type` (up to 50 MiB) for 15 minutes, and the `reference` (`upload:<upload_id>`) to send wherever an image input is accepted. The upload belongs to this account (another account’s reference is 404) and serves for 24 h after it arrives; it is checked like any input when used.
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["createUpload_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the base models, what each accepts and costs
         * @description Every base model with its operations, resolutions, aspect ratios, `quality` values, `size` support and prices, and whether a real hosted model serves it in this deployment (`served_by`). Enhance and remix are pinned (`pinned`).
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the base models, what each accepts and costs
         * @deprecated
         * @description Every base model with its operations, resolutions, aspect ratios, `quality` values, `size` support and prices, and whether a real hosted model serves it in this deployment (`served_by`). Enhance and remix are pinned (`pinned`).
         *
         *     Requires an API key with the `images` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["listModels_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account’s jobs
         * @description Newest first, synchronous calls included; one page per call, continued with `cursor`.
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["listJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account’s jobs
         * @deprecated
         * @description Newest first, synchronous calls included; one page per call, continued with `cursor`.
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["listJobs_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Poll a job
         * @description The authoritative outcome of a job. Another account’s job is 404; 24 h after completion, 410 `JOB_EXPIRED`.
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Poll a job
         * @deprecated
         * @description The authoritative outcome of a job. Another account’s job is 404; 24 h after completion, 410 `JOB_EXPIRED`.
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getJob_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/jobs/{job_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A job’s callback delivery attempts
         * @description Every attempt to deliver the job’s callback (and its redeliveries), oldest first: when, the receiver’s status or why there was none, the latency, and whether it was the last of its delivery. Attempts are kept while the job is (24 h after completion).
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["listJobDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/jobs/{job_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A job’s callback delivery attempts
         * @deprecated
         * @description Every attempt to deliver the job’s callback (and its redeliveries), oldest first: when, the receiver’s status or why there was none, the latency, and whether it was the last of its delivery. Attempts are kept while the job is (24 h after completion).
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["listJobDeliveries_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/jobs/{job_id}/deliveries/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver a job’s callback again
         * @description Queues a fresh delivery of an ended job’s event: a new delivery id (receivers that deduplicate by id take it), the body a poll answers now, signed when sent, with the same retries. To the job’s `callback_url`, or to `callback_url` in the body (required for a job submitted without one; the same address rules). 409 `JOB_NOT_FINISHED` while the job is pending or running. Webhook tests and redeliveries together are limited to 30 a minute per account (429 `RATE_LIMITED`).
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["redeliverJobCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/jobs/{job_id}/deliveries/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver a job’s callback again
         * @deprecated
         * @description Queues a fresh delivery of an ended job’s event: a new delivery id (receivers that deduplicate by id take it), the body a poll answers now, signed when sent, with the same retries. To the job’s `callback_url`, or to `callback_url` in the body (required for a job submitted without one; the same address rules). 409 `JOB_NOT_FINISHED` while the job is pending or running. Webhook tests and redeliveries together are limited to 30 a minute per account (429 `RATE_LIMITED`).
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["redeliverJobCallback_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/jobs/{job_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a job
         * @description A `pending` or `running` asynchronous job stops: it ends `failed` with `error.code` `CANCELED`, its reservation is refunded, and its callback is sent. A job that has already ended (or whose success crossed the cancel) is 409 `JOB_NOT_CANCELABLE`, as is a synchronous call. Submit with `cancel_after` to have a job canceled by a deadline.
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/jobs/{job_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a job
         * @deprecated
         * @description A `pending` or `running` asynchronous job stops: it ends `failed` with `error.code` `CANCELED`, its reservation is refunded, and its callback is sent. A job that has already ended (or whose success crossed the cancel) is 409 `JOB_NOT_CANCELABLE`, as is a synchronous call. Submit with `cancel_after` to have a job canceled by a deadline.
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["cancelJob_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/downloads/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a download link
         * @description The token is the credential (no API key). Redirects to a short-lived URL of the image.
         */
        get: operations["download"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/downloads/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a download link
         * @deprecated
         * @description The token is the credential (no API key). Redirects to a short-lived URL of the image.
         */
        get: operations["download_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/profiles/add": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a profile from photos
         * @description Reserves the tier’s price (Full Train 2.90, Quick Train 1.49) and starts training at once.
         *
         *     Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["addProfile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/profiles/add": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a profile from photos
         * @deprecated
         * @description Reserves the tier’s price (Full Train 2.90, Quick Train 1.49) and starts training at once.
         *
         *     Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["addProfile_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/profiles/preflight": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a training set, free
         * @description Fetches and checks each photo as training would (the same URL rules and image checks) and says, per photo, whether it was fetched, its format and dimensions, and warnings (too small, duplicate or near-duplicate, very blurry, greyscale, extreme aspect); overall, whether `profiles/add` with the same body would be accepted and why not. Nothing is created or charged. It answers within 25 s: a photo not reached by then is `status: "not_checked"`. What a direct upload (`upload:` reference) turned out to be is remembered for a day, by its id and ETag, so sending the preflight again as photos arrive reads only the new ones.
         *
         *     Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["preflightProfile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/profiles/preflight": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a training set, free
         * @deprecated
         * @description Fetches and checks each photo as training would (the same URL rules and image checks) and says, per photo, whether it was fetched, its format and dimensions, and warnings (too small, duplicate or near-duplicate, very blurry, greyscale, extreme aspect); overall, whether `profiles/add` with the same body would be accepted and why not. Nothing is created or charged. It answers within 25 s: a photo not reached by then is `status: "not_checked"`. What a direct upload (`upload:` reference) turned out to be is remembered for a day, by its id and ETag, so sending the preflight again as photos arrive reads only the new ones.
         *
         *     Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["preflightProfile_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/profiles/ids": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account’s profiles
         * @description Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["listProfiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/profiles/ids": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account’s profiles
         * @deprecated
         * @description Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["listProfiles_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/profiles/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Backfill tags
         * @description Sets a tag only where a profile has none; every entry lands in exactly one bucket of the report.
         *
         *     Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["tagProfiles"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/profiles/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Backfill tags
         * @deprecated
         * @description Sets a tag only where a profile has none; every entry lands in exactly one bucket of the report.
         *
         *     Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["tagProfiles_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/profiles/{profile_id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a profile’s training status
         * @description Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getProfileStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/profiles/{profile_id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a profile’s training status
         * @deprecated
         * @description Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getProfileStatus_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/profiles/{profile_id}/profile_picture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a profile’s picture
         * @description Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getProfilePicture"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/profiles/{profile_id}/profile_picture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a profile’s picture
         * @deprecated
         * @description Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getProfilePicture_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/profiles/{profile_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a profile and its data
         * @description Stops training, refunds an unsettled reservation, deletes the photos, picture and record.
         *
         *     Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        delete: operations["deleteProfile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/profiles/{profile_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a profile and its data
         * @deprecated
         * @description Stops training, refunds an unsettled reservation, deletes the photos, picture and record.
         *
         *     Requires an API key with the `profiles` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        delete: operations["deleteProfile_v1"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the callback signing secret
         * @description Created on first use. Callbacks carry `X-Service-Signature` and the Standard Webhooks headers (docs/callbacks.md).
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getWebhookSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the callback signing secret
         * @deprecated
         * @description Created on first use. Callbacks carry `X-Service-Signature` and the Standard Webhooks headers (docs/callbacks.md).
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getWebhookSecret_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/webhook-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the callback signing secret
         * @description Answers a new secret; for 24 h deliveries are signed with both the new and the previous one (docs/callbacks.md).
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/webhook-secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the callback signing secret
         * @deprecated
         * @description Answers a new secret; for 24 h deliveries are signed with both the new and the previous one (docs/callbacks.md).
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["rotateWebhookSecret_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/webhook-test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed test event
         * @description POSTs one test event (`{"type": "webhook.test", …}`) to `url`, signed exactly as callbacks are (Standard Webhooks headers and `X-Service-Signature`, with every live secret), through the same guarded client (https only, public addresses only, 10 s), and answers what the receiver did. Nothing is retried or recorded; an unreachable receiver is a 200 that says so. Webhook tests and redeliveries together are limited to 30 a minute per account (429 `RATE_LIMITED`).
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/webhook-test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed test event
         * @deprecated
         * @description POSTs one test event (`{"type": "webhook.test", …}`) to `url`, signed exactly as callbacks are (Standard Webhooks headers and `X-Service-Signature`, with every live secret), through the same guarded client (https only, public addresses only, 10 s), and answers what the receiver did. Nothing is retried or recorded; an unreachable receiver is a 200 that says so. Webhook tests and redeliveries together are limited to 30 a minute per account (429 `RATE_LIMITED`).
         *
         *     Requires an API key with the `jobs` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["testWebhook_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account: balance and limits
         * @description The prepaid balance (read strongly: reservations of running work already taken out), the default model version, and the limits in force.
         *
         *     Requires an API key with the `account:read` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account: balance and limits
         * @deprecated
         * @description The prepaid balance (read strongly: reservations of running work already taken out), the default model version, and the limits in force.
         *
         *     Requires an API key with the `account:read` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getAccount_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/account/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account’s ledger
         * @description Every change of the balance, newest first, each with the balance after it and the job or profile it belongs to: `credit`, `reserve` (at submit), `settle` (the difference to the final price) and `release` (a refund). One page per call, continued with `cursor`.
         *
         *     Requires an API key with the `account:read` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/account/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account’s ledger
         * @deprecated
         * @description Every change of the balance, newest first, each with the balance after it and the job or profile it belongs to: `credit`, `reserve` (at submit), `settle` (the difference to the final price) and `release` (a refund). One page per call, continued with `cursor`.
         *
         *     Requires an API key with the `account:read` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getLedger_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/account/top-ups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account’s top-ups
         * @description Newest first, one page per call, continued with `cursor`.
         *
         *     Requires an API key with the `billing` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["listTopUps"];
        put?: never;
        /**
         * Top up the balance (Stripe Checkout)
         * @description Opens a Stripe Checkout page for `amount` US dollars and answers where it is. The balance is credited when Stripe confirms the payment to this service (its webhook), exactly once, with the amount Stripe reports; returning from Checkout credits nothing by itself. Checkout sends the developer back to the portal’s Billing page. 422 for an amount that is not dollars with at most two decimals, outside the operator’s limits, or a currency other than `usd`; 503 when the operator has not configured Stripe.
         *
         *     Requires an API key with the `billing` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        post: operations["createTopUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/account/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Auto-recharge and the low-balance notice
         * @description The account’s billing settings, its balance, and the debt a refund or a lost dispute left (docs/billing.md).
         *
         *     Requires an API key with the `billing` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        get: operations["getBillingSettings"];
        /**
         * Set auto-recharge and the low-balance notice
         * @description Each field given replaces what was set (null clears it). Auto-recharge needs a card saved at a top-up paid with `save_card: true` (400 otherwise) and charges at least the smallest top-up. After a job’s settle leaves the balance below `auto_recharge.threshold`, the card is charged off-session for `auto_recharge.amount`, at most once an hour; a decline or a bank asking for authentication turns it off and sends `auto_recharge.failed` to `webhook_url`. Below `low_balance_threshold`, one `balance.low` event is sent to `webhook_url` per crossing, signed as callbacks are.
         *
         *     Requires an API key with the `billing` scope (403 `INSUFFICIENT_SCOPE` otherwise).
         */
        put: operations["updateBillingSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/billing/stripe/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stripe’s events (for Stripe only)
         * @description Where the operator points its Stripe webhook endpoint (docs/billing.md). Authenticated by the `Stripe-Signature` header over the raw body, not an API key: a missing or bad signature is a 400 and changes nothing. `checkout.session.completed` (paid) and `checkout.session.async_payment_succeeded` credit a top-up once; `charge.refunded` and a lost `charge.dispute.closed` debit what was returned; other events are answered 200 and ignored.
         */
        post: operations["stripeWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/internal/trainer-callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A training backend reports (internal)
         * @description For a training backend (`TRAINER=http`), authenticated by the trainer bearer token, not an API key (docs/trainer-contract.md).
         */
        post: operations["trainerCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/internal/trainer-callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A training backend reports (internal)
         * @deprecated
         * @description For a training backend (`TRAINER=http`), authenticated by the trainer bearer token, not an API key (docs/trainer-contract.md).
         */
        post: operations["trainerCallback_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/providers/{provider}/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A queued provider reports a request’s end (internal)
         * @description For a provider that queues work (MODEL_ROUTES naming one, `{provider}` its id; another id is a 404): the callback URL the service gives it with the work, carrying the job and our token; verified by the provider’s own signature over the raw body (for each provider, docs/providers.md), not an API key. A report of a job that has ended or is gone, or of a request the job does not hold, is answered 200 with `accepted: false` (logged), so that the provider stops delivering it.
         */
        post: operations["providerWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/providers/{provider}/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A queued provider reports a request’s end (internal)
         * @deprecated
         * @description For a provider that queues work (MODEL_ROUTES naming one, `{provider}` its id; another id is a 404): the callback URL the service gives it with the work, carrying the job and our token; verified by the provider’s own signature over the raw body (for each provider, docs/providers.md), not an API key. A report of a job that has ended or is gone, or of a request the job does not hold, is answered 200 with `accepted: false` (logged), so that the provider stops delivering it.
         */
        post: operations["providerWebhook_v1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document
         * @deprecated
         */
        get: operations["openapi_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API reference page
         * @description Rendered in the browser by Scalar from this document; the renderer is served by the service itself (no CDN).
         */
        get: operations["docs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API reference page
         * @deprecated
         * @description Rendered in the browser by Scalar from this document; the renderer is served by the service itself (no CDN).
         */
        get: operations["docs_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/service/docs/scalar.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reference page’s renderer (Scalar) */
        get: operations["docsRenderer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service/docs/scalar.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The reference page’s renderer (Scalar)
         * @deprecated
         */
        get: operations["docsRenderer_v1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * Account
         * @example {
         *       "account_id": "acc_01JD5Z",
         *       "name": "Acme",
         *       "balance": {
         *         "usd": "99.88",
         *         "micro_usd": 99880000
         *       },
         *       "default_model_version": "v2",
         *       "limits": {
         *         "requests_per_minute": 3000,
         *         "running_jobs": 20
         *       },
         *       "created_at": "2026-11-23T12:00:00.000Z"
         *     }
         */
        Account: {
            account_id: string;
            name: string;
            /**
             * Money
             * @description The prepaid balance now (reservations of running work already taken out).
             */
            balance: {
                /** @description US dollars, exact, two to six decimals. */
                usd: string;
                /** @description The same amount in millionths of a dollar. */
                micro_usd: number;
            };
            /** @enum {string} */
            default_model_version: "v1" | "v2";
            limits: {
                /** @description Requests per minute past which the answer is 429 `RATE_LIMITED`. */
                requests_per_minute: number;
                /** @description Asynchronous jobs running at once; more wait `pending`. */
                running_jobs: number;
            };
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC).
             */
            created_at: string;
        };
        /** BillingSettings */
        BillingSettings: {
            auto_recharge: {
                enabled: boolean;
                threshold: string | null;
                amount: string | null;
                /** @description A card was kept at a top-up paid with `save_card: true`. */
                card_saved: boolean;
                /** @description Why the service turned auto-recharge off (Stripe’s decline code, e.g. `card_declined`). */
                disabled_reason: string | null;
                /** @description What automatic charges claimed today (UTC); they stop at `daily_max`. */
                charged_today: string;
                /** @description The operator’s cap of automatic charges per account per UTC day (AUTO_RECHARGE_DAILY_MAX_USD). */
                daily_max: string;
            };
            low_balance_threshold: string | null;
            webhook_url: string | null;
            /** Money */
            balance: {
                /** @description US dollars, exact, two to six decimals. */
                usd: string;
                /** @description The same amount in millionths of a dollar. */
                micro_usd: number;
            };
            /**
             * Money
             * @description What a refund or a lost dispute took beyond the balance; new work waits until it is repaid.
             */
            debt: {
                /** @description US dollars, exact, two to six decimals. */
                usd: string;
                /** @description The same amount in millionths of a dollar. */
                micro_usd: number;
            };
        };
        /**
         * ErrorBody
         * @example {
         *       "detail": "Job job_0123 not found.",
         *       "code": "NOT_FOUND",
         *       "request_id": "6f1c0c1e-3b8a-4a53-9f53-2d3c4b5a6978"
         *     }
         */
        ErrorBody: {
            /** @description What went wrong, safe to show. */
            detail: string;
            /**
             * @description Stable error code; switch on this, not on `detail`.
             * @enum {string}
             */
            code: "INVALID_REQUEST" | "MISSING_API_KEY" | "INVALID_API_KEY" | "INSUFFICIENT_SCOPE" | "PERSON_REQUIRED" | "INSUFFICIENT_BALANCE" | "BALANCE_IN_DEBT" | "NOT_FOUND" | "JOB_EXPIRED" | "DOWNLOAD_EXPIRED" | "PAYLOAD_TOO_LARGE" | "CONTENT_MODERATION" | "MIXED_PROFILE_MODEL_VERSIONS" | "PROFILE_NOT_READY" | "PROFILE_NEEDS_REEMBEDDING" | "NO_IMAGE_GENERATED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE" | "TIMEOUT" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "CANCELED" | "JOB_NOT_CANCELABLE" | "JOB_NOT_FINISHED";
            /** @description The `X-Request-Id` of this answer; quote it to support. */
            request_id: string;
        };
        /**
         * ImageResult
         * @example {
         *       "known_subjects": {
         *         "counts": {
         *           "prf_5kq2x8": 1
         *         }
         *       },
         *       "recognized_faces": [
         *         {
         *           "output_index": 0,
         *           "profile_id": "prf_5kq2x8",
         *           "box": {
         *             "x": 412,
         *             "y": 188,
         *             "width": 236,
         *             "height": 251
         *           },
         *           "similarity": 0.842,
         *           "billed": true
         *         }
         *       ],
         *       "identity": {
         *         "expected": [
         *           "prf_5kq2x8"
         *         ],
         *         "outputs": [
         *           {
         *             "output_index": 0,
         *             "kept": [
         *               "prf_5kq2x8"
         *             ],
         *             "missing": [],
         *             "attempts": 1
         *           }
         *         ],
         *         "retried_outputs": 0
         *       },
         *       "images": [],
         *       "download_urls": [
         *         "https://api.example.com/v2/service/downloads/dl_…"
         *       ]
         *     }
         */
        ImageResult: {
            known_subjects: {
                /** @description profile_id → how many times that subject appears, summed over all outputs (used for billing). */
                counts: {
                    [key: string]: number;
                };
            };
            /** @description Each recognition (a profile at most once per output), with the face that was matched, its similarity and whether it bills, for outlining it; `known_subjects` counts the billed ones. Empty when none (and for jobs finished before boxes were kept). */
            recognized_faces: {
                /** @description Which output (0-based). */
                output_index: number;
                profile_id: string;
                /**
                 * PixelBox
                 * @description The face in the output image's own pixels.
                 */
                box: {
                    /** @description Left edge, pixels from the left. */
                    x: number;
                    /** @description Top edge, pixels from the top. */
                    y: number;
                    width: number;
                    height: number;
                };
                /** @description Cosine of the face to the profile's template, 3 decimals; a face counts from 0.70 (absent for jobs finished before it was kept). */
                similarity?: number;
                /** @description Whether this recognition counts in `known_subjects` and the price: a person's does; an animal's is reported but not billed. */
                billed: boolean;
            }[];
            /**
             * Identity
             * @description How identity was kept, output by output; absent with `identity_check: off`.
             */
            identity?: {
                /** @description The subjects this request expected, in request order: named as [[id]] in the prompt, or listed in profile_ids and recognised in the input. */
                expected: string[];
                /** @description One entry per output. */
                outputs: {
                    /** @description Which output (0-based). */
                    output_index: number;
                    /** @description Expected subjects recognised in this output. */
                    kept: string[];
                    /** @description Expected subjects not recognised in this output. */
                    missing: string[];
                    /** @description How many times this output was made: more than 1 only with `identity_check: retry`. */
                    attempts: number;
                    /** @description profile_id → how each expected subject was given to the model for this output: `lora`, by the LoRA its Full Train trained (only `base-a-2`, for at most one subject of a request: docs/identity.md), or `references`, by reference images of its face. Absent when nobody is expected, and on results made before it was reported. */
                    carried_by?: {
                        [key: string]: "lora" | "references";
                    };
                }[];
                /** @description Outputs made again by `identity_check: retry` (the sum of each output’s attempts beyond the first), each charged at the operation’s per-output price; 0 without a retry. */
                retried_outputs: number;
                /** @description Expected subjects whose face template of the current face model was not ready in time: their references were sent, but they were not recognised and are not billed (nor listed as missing). Absent when every subject was checked. */
                not_checked?: string[];
            };
            /** @description Base64 images (`response_mode: bytes`), else empty. */
            images: string[];
            /** @description Links valid 24 h (`response_mode: urls`), else empty. */
            download_urls: string[];
        };
        /** JobDeliveries */
        JobDeliveries: {
            job_id: string;
            callback_url: string | null;
            attempts: {
                /** @description The `webhook-id` / `X-Service-Delivery-Id` the attempt carried; a redelivery has its own. */
                delivery_id: string;
                attempt: number;
                /**
                 * Format: date-time
                 * @description ISO 8601 date-time (UTC).
                 */
                at: string;
                /** @description The receiver’s HTTP status; null when there was no answer. */
                response_status: number | null;
                /** @description Why there was no answer: `timeout` (10 s) or `network` (refused, reset, TLS, a blocked address). */
                error: ("timeout" | "network") | null;
                latency_ms: number;
                /** @description No further attempt of this delivery follows: delivered (2xx), refused with 410, or the retries spent. */
                last: boolean;
            }[];
        };
        /**
         * JobHandle
         * @example {
         *       "job_id": "job_2b7f1c",
         *       "status": "pending",
         *       "poll_url": "/v2/service/jobs/job_2b7f1c"
         *     }
         */
        JobHandle: {
            job_id: string;
            /** @constant */
            status: "pending";
            /** @description Path of this job’s status endpoint. */
            poll_url: string;
        };
        /** JobPage */
        JobPage: {
            jobs: {
                job_id: string;
                /** @enum {string} */
                status: "pending" | "running" | "succeeded" | "failed";
                /** @enum {string} */
                operation: "edit" | "generate" | "enhance" | "remix";
                /**
                 * Format: date-time
                 * @description ISO 8601 date-time (UTC).
                 */
                created_at: string;
                /** @description Set once `succeeded`: `download_urls` filled, `images` empty. */
                result: {
                    known_subjects: {
                        /** @description profile_id → how many times that subject appears, summed over all outputs (used for billing). */
                        counts: {
                            [key: string]: number;
                        };
                    };
                    /** @description Each recognition (a profile at most once per output), with the face that was matched, its similarity and whether it bills, for outlining it; `known_subjects` counts the billed ones. Empty when none (and for jobs finished before boxes were kept). */
                    recognized_faces: {
                        /** @description Which output (0-based). */
                        output_index: number;
                        profile_id: string;
                        /**
                         * PixelBox
                         * @description The face in the output image's own pixels.
                         */
                        box: {
                            /** @description Left edge, pixels from the left. */
                            x: number;
                            /** @description Top edge, pixels from the top. */
                            y: number;
                            width: number;
                            height: number;
                        };
                        /** @description Cosine of the face to the profile's template, 3 decimals; a face counts from 0.70 (absent for jobs finished before it was kept). */
                        similarity?: number;
                        /** @description Whether this recognition counts in `known_subjects` and the price: a person's does; an animal's is reported but not billed. */
                        billed: boolean;
                    }[];
                    /**
                     * Identity
                     * @description How identity was kept, output by output; absent with `identity_check: off`.
                     */
                    identity?: {
                        /** @description The subjects this request expected, in request order: named as [[id]] in the prompt, or listed in profile_ids and recognised in the input. */
                        expected: string[];
                        /** @description One entry per output. */
                        outputs: {
                            /** @description Which output (0-based). */
                            output_index: number;
                            /** @description Expected subjects recognised in this output. */
                            kept: string[];
                            /** @description Expected subjects not recognised in this output. */
                            missing: string[];
                            /** @description How many times this output was made: more than 1 only with `identity_check: retry`. */
                            attempts: number;
                            /** @description profile_id → how each expected subject was given to the model for this output: `lora`, by the LoRA its Full Train trained (only `base-a-2`, for at most one subject of a request: docs/identity.md), or `references`, by reference images of its face. Absent when nobody is expected, and on results made before it was reported. */
                            carried_by?: {
                                [key: string]: "lora" | "references";
                            };
                        }[];
                        /** @description Outputs made again by `identity_check: retry` (the sum of each output’s attempts beyond the first), each charged at the operation’s per-output price; 0 without a retry. */
                        retried_outputs: number;
                        /** @description Expected subjects whose face template of the current face model was not ready in time: their references were sent, but they were not recognised and are not billed (nor listed as missing). Absent when every subject was checked. */
                        not_checked?: string[];
                    };
                    /** @description Base64 images (`response_mode: bytes`), else empty. */
                    images: string[];
                    /** @description Links valid 24 h (`response_mode: urls`), else empty. */
                    download_urls: string[];
                } | null;
                /** @description Set once `failed`. */
                error: {
                    /** @enum {string} */
                    code: "INVALID_REQUEST" | "MISSING_API_KEY" | "INVALID_API_KEY" | "INSUFFICIENT_SCOPE" | "PERSON_REQUIRED" | "INSUFFICIENT_BALANCE" | "BALANCE_IN_DEBT" | "NOT_FOUND" | "JOB_EXPIRED" | "DOWNLOAD_EXPIRED" | "PAYLOAD_TOO_LARGE" | "CONTENT_MODERATION" | "MIXED_PROFILE_MODEL_VERSIONS" | "PROFILE_NOT_READY" | "PROFILE_NEEDS_REEMBEDDING" | "NO_IMAGE_GENERATED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE" | "TIMEOUT" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "CANCELED" | "JOB_NOT_CANCELABLE" | "JOB_NOT_FINISHED";
                    message: string;
                } | null;
                completed_at: string | null;
                /** @description 0 while pending, the engine’s last report while running (written at most every 2 s), 1 once succeeded. */
                progress: number;
                /** @description Seconds left at the pace so far; null while unknown, and for a failed job. */
                eta_seconds: number | null;
                /** @description The job’s money in USD; null only for a job recorded before costs were kept. */
                cost: {
                    /** @description Reserved from the balance at submit (the floor price). */
                    reserved: string;
                    /** @description Once ended: the price settled, or `0.00` when the reservation was refunded; null before. */
                    final: string | null;
                } | null;
            }[];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        /**
         * JobStatus
         * @example {
         *       "job_id": "job_2b7f1c",
         *       "status": "succeeded",
         *       "operation": "generate",
         *       "created_at": "2026-11-23T12:00:00.000Z",
         *       "result": {
         *         "known_subjects": {
         *           "counts": {}
         *         },
         *         "recognized_faces": [],
         *         "images": [],
         *         "download_urls": [
         *           "https://api.example.com/v2/service/downloads/dl_…"
         *         ]
         *       },
         *       "error": null,
         *       "completed_at": "2026-11-23T12:00:09.000Z",
         *       "progress": 1,
         *       "eta_seconds": 0,
         *       "cost": {
         *         "reserved": "0.04",
         *         "final": "0.04"
         *       }
         *     }
         */
        JobStatus: {
            job_id: string;
            /** @enum {string} */
            status: "pending" | "running" | "succeeded" | "failed";
            /** @enum {string} */
            operation: "edit" | "generate" | "enhance" | "remix";
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC).
             */
            created_at: string;
            /** @description Set once `succeeded`: `download_urls` filled, `images` empty. */
            result: {
                known_subjects: {
                    /** @description profile_id → how many times that subject appears, summed over all outputs (used for billing). */
                    counts: {
                        [key: string]: number;
                    };
                };
                /** @description Each recognition (a profile at most once per output), with the face that was matched, its similarity and whether it bills, for outlining it; `known_subjects` counts the billed ones. Empty when none (and for jobs finished before boxes were kept). */
                recognized_faces: {
                    /** @description Which output (0-based). */
                    output_index: number;
                    profile_id: string;
                    /**
                     * PixelBox
                     * @description The face in the output image's own pixels.
                     */
                    box: {
                        /** @description Left edge, pixels from the left. */
                        x: number;
                        /** @description Top edge, pixels from the top. */
                        y: number;
                        width: number;
                        height: number;
                    };
                    /** @description Cosine of the face to the profile's template, 3 decimals; a face counts from 0.70 (absent for jobs finished before it was kept). */
                    similarity?: number;
                    /** @description Whether this recognition counts in `known_subjects` and the price: a person's does; an animal's is reported but not billed. */
                    billed: boolean;
                }[];
                /**
                 * Identity
                 * @description How identity was kept, output by output; absent with `identity_check: off`.
                 */
                identity?: {
                    /** @description The subjects this request expected, in request order: named as [[id]] in the prompt, or listed in profile_ids and recognised in the input. */
                    expected: string[];
                    /** @description One entry per output. */
                    outputs: {
                        /** @description Which output (0-based). */
                        output_index: number;
                        /** @description Expected subjects recognised in this output. */
                        kept: string[];
                        /** @description Expected subjects not recognised in this output. */
                        missing: string[];
                        /** @description How many times this output was made: more than 1 only with `identity_check: retry`. */
                        attempts: number;
                        /** @description profile_id → how each expected subject was given to the model for this output: `lora`, by the LoRA its Full Train trained (only `base-a-2`, for at most one subject of a request: docs/identity.md), or `references`, by reference images of its face. Absent when nobody is expected, and on results made before it was reported. */
                        carried_by?: {
                            [key: string]: "lora" | "references";
                        };
                    }[];
                    /** @description Outputs made again by `identity_check: retry` (the sum of each output’s attempts beyond the first), each charged at the operation’s per-output price; 0 without a retry. */
                    retried_outputs: number;
                    /** @description Expected subjects whose face template of the current face model was not ready in time: their references were sent, but they were not recognised and are not billed (nor listed as missing). Absent when every subject was checked. */
                    not_checked?: string[];
                };
                /** @description Base64 images (`response_mode: bytes`), else empty. */
                images: string[];
                /** @description Links valid 24 h (`response_mode: urls`), else empty. */
                download_urls: string[];
            } | null;
            /** @description Set once `failed`. */
            error: {
                /** @enum {string} */
                code: "INVALID_REQUEST" | "MISSING_API_KEY" | "INVALID_API_KEY" | "INSUFFICIENT_SCOPE" | "PERSON_REQUIRED" | "INSUFFICIENT_BALANCE" | "BALANCE_IN_DEBT" | "NOT_FOUND" | "JOB_EXPIRED" | "DOWNLOAD_EXPIRED" | "PAYLOAD_TOO_LARGE" | "CONTENT_MODERATION" | "MIXED_PROFILE_MODEL_VERSIONS" | "PROFILE_NOT_READY" | "PROFILE_NEEDS_REEMBEDDING" | "NO_IMAGE_GENERATED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE" | "TIMEOUT" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "CANCELED" | "JOB_NOT_CANCELABLE" | "JOB_NOT_FINISHED";
                message: string;
            } | null;
            completed_at: string | null;
            /** @description 0 while pending, the engine’s last report while running (written at most every 2 s), 1 once succeeded. */
            progress: number;
            /** @description Seconds left at the pace so far; null while unknown, and for a failed job. */
            eta_seconds: number | null;
            /** @description The job’s money in USD; null only for a job recorded before costs were kept. */
            cost: {
                /** @description Reserved from the balance at submit (the floor price). */
                reserved: string;
                /** @description Once ended: the price settled, or `0.00` when the reservation was refunded; null before. */
                final: string | null;
            } | null;
        };
        /** LedgerPage */
        LedgerPage: {
            entries: {
                entry_id: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 date-time (UTC).
                 */
                created_at: string;
                /**
                 * @description `credit` (money added), `reserve` (taken at submit), `settle` (the reservation’s difference to the final price given back, or a surcharge taken), `release` (a reservation refunded).
                 * @enum {string}
                 */
                kind: "credit" | "reserve" | "settle" | "release";
                /**
                 * Money
                 * @description The signed effect on the balance.
                 */
                amount: {
                    /** @description US dollars, exact, two to six decimals. */
                    usd: string;
                    /** @description The same amount in millionths of a dollar. */
                    micro_usd: number;
                };
                /** Money */
                balance_after: {
                    /** @description US dollars, exact, two to six decimals. */
                    usd: string;
                    /** @description The same amount in millionths of a dollar. */
                    micro_usd: number;
                };
                job_id: string | null;
                profile_id: string | null;
                /** @description The operator’s note on a credit; on a settle, what identity retries were charged. */
                note: string | null;
                /** @description On the settle of a job whose `identity_check: retry` made outputs again: how many, each charged at the operation’s per-output price. */
                retried_outputs?: number;
            }[];
            /** @description Pass as `cursor` for older entries; null on the last page. */
            next_cursor: string | null;
        };
        /** ModelList */
        ModelList: {
            default_model: string;
            models: {
                /** @description The value of `base_model`. */
                id: string;
                default: boolean;
                operations: ("edit" | "generate")[];
                resolutions: ("1K" | "2K" | "4K")[];
                aspect_ratios: string[];
                default_aspect_ratio: string;
                /** @description Accepted `quality` values; empty: the model takes none. */
                qualities: string[];
                /** @description Whether an exact `size` may replace the 1K tier. */
                size: boolean;
                /** @description What the model charges. A request reserves the most it can cost (every identity surcharge that may apply; for a token-metered model the published output tokens of its size and quality plus its input tokens), settles the final price and releases the rest; a balance below that ceiling answers 402 naming it. */
                pricing: {
                    /** @constant */
                    metering: "flat";
                    /** @description The price of one output image at each resolution the model offers. */
                    per_image: {
                        /** Money */
                        "1K"?: {
                            /** @description US dollars, exact, two to six decimals. */
                            usd: string;
                            /** @description The same amount in millionths of a dollar. */
                            micro_usd: number;
                        };
                        /** Money */
                        "2K"?: {
                            /** @description US dollars, exact, two to six decimals. */
                            usd: string;
                            /** @description The same amount in millionths of a dollar. */
                            micro_usd: number;
                        };
                        /** Money */
                        "4K"?: {
                            /** @description US dollars, exact, two to six decimals. */
                            usd: string;
                            /** @description The same amount in millionths of a dollar. */
                            micro_usd: number;
                        };
                    };
                    /**
                     * Money
                     * @description Added per recognised subject occurrence.
                     */
                    identity_surcharge: {
                        /** @description US dollars, exact, two to six decimals. */
                        usd: string;
                        /** @description The same amount in millionths of a dollar. */
                        micro_usd: number;
                    };
                } | {
                    /** @constant */
                    metering: "tokens";
                    /**
                     * Money
                     * @description Per 1000 output tokens the model reports.
                     */
                    per_thousand_output_tokens: {
                        /** @description US dollars, exact, two to six decimals. */
                        usd: string;
                        /** @description The same amount in millionths of a dollar. */
                        micro_usd: number;
                    };
                    /**
                     * Money
                     * @description Per 1000 input tokens of the prompt as sent (with any identity instructions).
                     */
                    per_thousand_input_text_tokens: {
                        /** @description US dollars, exact, two to six decimals. */
                        usd: string;
                        /** @description The same amount in millionths of a dollar. */
                        micro_usd: number;
                    };
                    /**
                     * Money
                     * @description Per 1000 input tokens of the images sent (the inputs and the profiles’ reference photos).
                     */
                    per_thousand_input_image_tokens: {
                        /** @description US dollars, exact, two to six decimals. */
                        usd: string;
                        /** @description The same amount in millionths of a dollar. */
                        micro_usd: number;
                    };
                    /**
                     * Money
                     * @description Charged at least, per output image.
                     */
                    floor_per_image: {
                        /** @description US dollars, exact, two to six decimals. */
                        usd: string;
                        /** @description The same amount in millionths of a dollar. */
                        micro_usd: number;
                    };
                    /** Money */
                    identity_surcharge: {
                        /** @description US dollars, exact, two to six decimals. */
                        usd: string;
                        /** @description The same amount in millionths of a dollar. */
                        micro_usd: number;
                    };
                } | {
                    /** @constant */
                    metering: "megapixels";
                    /** Money */
                    per_megapixel: {
                        /** @description US dollars, exact, two to six decimals. */
                        usd: string;
                        /** @description The same amount in millionths of a dollar. */
                        micro_usd: number;
                    };
                    /**
                     * Money
                     * @description Charged at least, per output image.
                     */
                    floor_per_image: {
                        /** @description US dollars, exact, two to six decimals. */
                        usd: string;
                        /** @description The same amount in millionths of a dollar. */
                        micro_usd: number;
                    };
                    /** Money */
                    identity_surcharge: {
                        /** @description US dollars, exact, two to six decimals. */
                        usd: string;
                        /** @description The same amount in millionths of a dollar. */
                        micro_usd: number;
                    };
                };
                /**
                 * @description `hosted`: a real model at a hosted provider; `backend`: the operator’s own GPU backend; `sandbox`: images made locally for development (not a real model).
                 * @enum {string}
                 */
                served_by: "hosted" | "backend" | "sandbox";
                /** @description Other names this deployment accepts in `base_model`. */
                aliases: string[];
            }[];
            pinned: {
                operations: [
                    "enhance",
                    "remix"
                ];
                base_model: string;
                resolution: string;
                /** Money */
                per_image: {
                    /** @description US dollars, exact, two to six decimals. */
                    usd: string;
                    /** @description The same amount in millionths of a dollar. */
                    micro_usd: number;
                };
                /** Money */
                per_image_with_profile: {
                    /** @description US dollars, exact, two to six decimals. */
                    usd: string;
                    /** @description The same amount in millionths of a dollar. */
                    micro_usd: number;
                };
                /**
                 * @description `hosted`: a real model at a hosted provider; `backend`: the operator’s own GPU backend; `sandbox`: images made locally for development (not a real model).
                 * @enum {string}
                 */
                served_by: "hosted" | "backend" | "sandbox";
            };
        };
        /** OpenApiDocument */
        OpenApiDocument: {
            /** @constant */
            openapi: "3.1.0";
            info: {
                title: string;
                version: string;
            };
            paths: {
                [key: string]: unknown;
            };
        };
        /** PreflightReport */
        PreflightReport: {
            /** @enum {string} */
            training_tier: "standard" | "fast";
            /** @description Whether profiles/add with the same body would be accepted and train. */
            accepted: boolean;
            /** @description Why not, each a sentence; empty when accepted. */
            problems: string[];
            /** @description Photos the training would use: one usable face each, of the same person as the rest. */
            usable_photos: number;
            /** @description Usable photos the tier needs (fast 4, standard 8). */
            needed_photos: number;
            photos: {
                index: number;
                url: string;
                /**
                 * @description `not_checked`: the preflight's 25 s ran out before this photo was read (then `fetched` is false, `error`, `face` and the measures null, and the set is not `accepted`); send the preflight again: photos already checked are remembered by upload and not read again.
                 * @enum {string}
                 */
                status: "checked" | "not_checked";
                fetched: boolean;
                error: string | null;
                format: string | null;
                width: number | null;
                height: number | null;
                /** @description What the face analysis found; null when the photo could not be read. */
                face: {
                    /** @description Faces found in the photo. */
                    count: number;
                    /** @description Exactly one face, at least 96 px, sharp, turned at most 45°, of the same person as the rest: the training would use this photo. */
                    usable: boolean;
                    /** @description The single face's box side in pixels. */
                    box_px: number | null;
                    /** @description Every face found, in the photo's own pixels after EXIF rotation, largest detector score first. */
                    boxes: {
                        /** @description Left edge, pixels from the left. */
                        x: number;
                        /** @description Top edge, pixels from the top. */
                        y: number;
                        width: number;
                        height: number;
                    }[];
                    /** @description Blur measured on the aligned face: higher is sharper; below 0.005 is too blurry. */
                    sharpness: number | null;
                    /** @description Head turn: 0 frontal, ±90 profile. */
                    yaw_degrees: number | null;
                    /** @description Whether the face is the same person as the rest of the set (null: not compared). */
                    same_person: boolean | null;
                    /** @description Cosine similarity to the mean of the set's other faces. */
                    similarity: number | null;
                } | null;
                warnings: {
                    /** @enum {string} */
                    code: "too_small" | "duplicate" | "near_duplicate" | "blurry" | "greyscale" | "extreme_aspect" | "no_face" | "several_faces" | "face_too_small" | "face_blurry" | "face_turned_away" | "other_person";
                    message: string;
                }[];
            }[];
        };
        /**
         * ProfileCreated
         * @example {
         *       "profile_id": "prf_5kq2x8"
         *     }
         */
        ProfileCreated: {
            profile_id: string;
        };
        /** ProfileDeleted */
        ProfileDeleted: {
            profile_id: string;
            /** @constant */
            status: "deleted";
        };
        /** ProfileList */
        ProfileList: {
            profiles: {
                profile_id: string;
                /** @enum {string} */
                status: "VALIDATING" | "QUEUING" | "IN_PROGRESS" | "READY" | "ERROR";
                tag: string | null;
            }[];
        };
        /**
         * ProfileStatus
         * @example {
         *       "profile_id": "prf_5kq2x8",
         *       "status": "IN_PROGRESS",
         *       "message": "The model is training.",
         *       "progress": 0.55,
         *       "eta_seconds": 81
         *     }
         */
        ProfileStatus: {
            profile_id: string;
            /** @enum {string} */
            status: "VALIDATING" | "QUEUING" | "IN_PROGRESS" | "READY" | "ERROR";
            message: string;
            /** @description 0 while validating, 0.1 once the photos are prepared, rising through the training, 1 once READY. */
            progress: number;
            /** @description Seconds of training left; null while unknown (before training starts, with a remote trainer) and for ERROR. */
            eta_seconds: number | null;
            /** @description While QUEUING at a hosted trainer (Full Train with a LoRA): how many trainings are ahead of this one there. Absent otherwise. */
            queue_position?: number;
        };
        /** ProviderReportAccepted */
        ProviderReportAccepted: {
            accepted: boolean;
            duplicate: boolean;
            resumed: boolean;
        };
        /** Redelivery */
        Redelivery: {
            job_id: string;
            delivery_id: string;
            callback_url: string;
        };
        /** StripeWebhookReceipt */
        StripeWebhookReceipt: {
            /** @constant */
            received: true;
            /**
             * @description What the event did; every outcome is a 200, so Stripe does not deliver it again.
             * @enum {string}
             */
            outcome: "credited" | "adjusted" | "closed" | "declined" | "duplicate" | "ignored" | "foreign" | "recorded";
        };
        /**
         * TagReport
         * @example {
         *       "updated": 2,
         *       "already_tagged": [
         *         "prf_a"
         *       ],
         *       "conflicts": [
         *         {
         *           "profile_id": "prf_b",
         *           "existing_tag": "alice"
         *         }
         *       ],
         *       "not_found": []
         *     }
         */
        TagReport: {
            updated: number;
            already_tagged: string[];
            conflicts: {
                profile_id: string;
                existing_tag: string;
            }[];
            not_found: string[];
        };
        /**
         * TopUpCreated
         * @example {
         *       "top_up_id": "tup_01jd5z",
         *       "checkout_url": "https://checkout.stripe.com/c/pay/cs_test_a1",
         *       "amount": "25.00",
         *       "status": "pending"
         *     }
         */
        TopUpCreated: {
            top_up_id: string;
            /** @description Stripe’s hosted Checkout page: send the developer there to pay. */
            checkout_url: string;
            /** @description US dollars, two decimals. */
            amount: string;
            /** @enum {string} */
            status: "pending";
        };
        /** TopUpPage */
        TopUpPage: {
            top_ups: {
                top_up_id: string;
                /**
                 * @description `pending` (Checkout open), `completed` (credited, once Stripe confirmed the payment), `expired` (unpaid), `failed`.
                 * @enum {string}
                 */
                status: "pending" | "completed" | "expired" | "failed";
                /** @description US dollars, two decimals. */
                amount: string;
                /** @description While pending: where to pay. */
                checkout_url: string | null;
                /**
                 * Format: date-time
                 * @description ISO 8601 date-time (UTC).
                 */
                created_at: string;
                completed_at: string | null;
                /** @description What Stripe reported paid, credited to the balance. */
                credited: {
                    /** @description US dollars, exact, two to six decimals. */
                    usd: string;
                    /** @description The same amount in millionths of a dollar. */
                    micro_usd: number;
                } | null;
                /**
                 * Money
                 * @description What refunds and lost disputes took back.
                 */
                refunded: {
                    /** @description US dollars, exact, two to six decimals. */
                    usd: string;
                    /** @description The same amount in millionths of a dollar. */
                    micro_usd: number;
                };
            }[];
            /** @description Pass as `cursor` for older top-ups; null on the last page. */
            next_cursor: string | null;
        };
        /** TrainerEventAccepted */
        TrainerEventAccepted: {
            /** @constant */
            accepted: true;
            /** @enum {string} */
            event: "heartbeat" | "succeeded" | "failed";
        };
        /**
         * UploadTicket
         * @example {
         *       "upload_id": "upl_01JD3Q8X2M9Z4Y6W5V7T8S9R0P",
         *       "reference": "upload:upl_01JD3Q8X2M9Z4Y6W5V7T8S9R0P",
         *       "upload_url": "https://bucket.s3.amazonaws.com/uploads/…?X-Amz-Signature=…",
         *       "upload_method": "PUT",
         *       "upload_headers": {
         *         "Content-Type": "image/jpeg"
         *       },
         *       "upload_url_expires_at": "2026-11-23T12:15:00.000Z",
         *       "expires_at": "2026-11-24T12:15:00.000Z"
         *     }
         */
        UploadTicket: {
            upload_id: string;
            /** @description Put this where an image input goes (`upload:<upload_id>`), once the PUT has succeeded. */
            reference: string;
            /**
             * Format: uri
             * @description PUT the bytes here, with `upload_headers`.
             */
            upload_url: string;
            /** @constant */
            upload_method: "PUT";
            upload_headers: {
                /** @enum {string} */
                "Content-Type": "image/jpeg" | "image/png" | "image/webp" | "image/heic" | "image/heif";
            };
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC).
             */
            upload_url_expires_at: string;
            /**
             * Format: date-time
             * @description The upload serves for 24 h after it arrives; this is the latest that can be.
             */
            expires_at: string;
        };
        /**
         * ValidationErrorBody
         * @example {
         *       "detail": [
         *         {
         *           "loc": [
         *             "body",
         *             "num_output_images"
         *           ],
         *           "msg": "Input should be less than or equal to 4",
         *           "type": "less_than_equal",
         *           "input": 9,
         *           "ctx": {
         *             "le": 4
         *           }
         *         }
         *       ]
         *     }
         */
        ValidationErrorBody: {
            detail: {
                /** @description Where: `body`, `query` or `path`, then the field names and indexes. */
                loc: (string | number)[];
                msg: string;
                /** @description pydantic v2's error type, e.g. `missing`, `literal_error`, `less_than_equal`. */
                type: string;
                input?: unknown;
                ctx?: {
                    [key: string]: unknown;
                };
            }[];
        };
        /** WebhookSecret */
        WebhookSecret: {
            /** @description The HMAC key of callback signatures (both schemes). */
            webhook_signing_secret: string;
            /**
             * Format: date-time
             * @description After a rotation: until when the previous secret also signs deliveries.
             */
            previous_secret_expires_at?: string;
        };
        /** WebhookTestResult */
        WebhookTestResult: {
            delivery_id: string;
            url: string;
            /** @description The receiver answered 2xx. */
            delivered: boolean;
            /** @description The receiver’s HTTP status; null when there was no answer. */
            response_status: number | null;
            /** @description Why there was no answer: `timeout` (10 s) or `network` (refused, reset, TLS, a blocked address). */
            error: ("timeout" | "network") | null;
            latency_ms: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Identifies this answer; quote it to support. */
        "X-Request-Id": string;
        /** @description `true` when the answer replays an earlier submit with the same `client_request_id`. */
        "Idempotent-Replayed": "true";
        /** @description The job a synchronous answer was recorded as (every image request is a job): `GET /jobs/{job_id}` shows its cost. */
        "X-Job-Id": string;
        /** @description The default `output_format` became `jpg` on this date. */
        "X-Service-Deprecation-Date": string;
        /** @description Seconds until the request can be retried. */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    edit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "prompt": "Put [[prf_5kq2x8]] on a beach at sunset",
                 *       "images": [
                 *         "https://example.com/photo.jpg"
                 *       ],
                 *       "output_format": "jpg"
                 *     }
                 */
                "application/json": {
                    /** @default false */
                    async?: boolean;
                    callback_url?: string;
                    client_request_id?: string;
                    /** @description With `async: true`: cancel the job (failed, `CANCELED`, refunded) if it has not ended this many seconds after submit. */
                    cancel_after?: number;
                    /** @enum {string} */
                    response_mode?: "bytes" | "urls";
                    /** @enum {string} */
                    output_format?: "png" | "jpg";
                    /** @default 1 */
                    num_output_images?: number;
                    /**
                     * @description `report` (default): each output says which expected subjects (named in the prompt, or recognised in the input) it kept, with a similarity on every recognised face. `retry`: also make again, at most twice, an output missing an expected subject, and deliver its best attempt (you pay for the delivered outputs only). `off`: no identity block.
                     * @default report
                     * @enum {string}
                     */
                    identity_check?: "report" | "retry" | "off";
                    /** @enum {string} */
                    aspect_ratio?: "auto" | "1:1" | "3:4" | "4:3" | "9:16" | "16:9";
                    /** @enum {string} */
                    resolution?: "1K" | "2K" | "4K";
                    /** @enum {string} */
                    quality?: "auto" | "low" | "medium" | "high" | "xhigh" | "max";
                    size?: string;
                    base_model?: string;
                    /** @default  */
                    prompt?: string;
                    profile_ids?: string[];
                    images: string[];
                };
            };
        };
        responses: {
            /** @description The image result (`images` filled for `response_mode: bytes`, `download_urls` for `urls`). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    "X-Job-Id": components["headers"]["X-Job-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description The job handle of an asynchronous submit. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobHandle"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The synchronous budget of 600 s ran out (`TIMEOUT`); the reservation is released. Resubmit with `async: true`. */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    edit_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "prompt": "Put [[prf_5kq2x8]] on a beach at sunset",
                 *       "images": [
                 *         "https://example.com/photo.jpg"
                 *       ],
                 *       "output_format": "jpg"
                 *     }
                 */
                "application/json": {
                    /** @default false */
                    async?: boolean;
                    callback_url?: string;
                    client_request_id?: string;
                    /** @description With `async: true`: cancel the job (failed, `CANCELED`, refunded) if it has not ended this many seconds after submit. */
                    cancel_after?: number;
                    /** @enum {string} */
                    response_mode?: "bytes" | "urls";
                    /** @enum {string} */
                    output_format?: "png" | "jpg";
                    /** @default 1 */
                    num_output_images?: number;
                    /**
                     * @description `report` (default): each output says which expected subjects (named in the prompt, or recognised in the input) it kept, with a similarity on every recognised face. `retry`: also make again, at most twice, an output missing an expected subject, and deliver its best attempt (you pay for the delivered outputs only). `off`: no identity block.
                     * @default report
                     * @enum {string}
                     */
                    identity_check?: "report" | "retry" | "off";
                    /** @enum {string} */
                    aspect_ratio?: "auto" | "1:1" | "3:4" | "4:3" | "9:16" | "16:9";
                    /** @enum {string} */
                    resolution?: "1K" | "2K" | "4K";
                    /** @enum {string} */
                    quality?: "auto" | "low" | "medium" | "high" | "xhigh" | "max";
                    size?: string;
                    base_model?: string;
                    /** @default  */
                    prompt?: string;
                    profile_ids?: string[];
                    images: string[];
                };
            };
        };
        responses: {
            /** @description The image result (`images` filled for `response_mode: bytes`, `download_urls` for `urls`). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    "X-Job-Id": components["headers"]["X-Job-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description The job handle of an asynchronous submit. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobHandle"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The synchronous budget of 600 s ran out (`TIMEOUT`); the reservation is released. Resubmit with `async: true`. */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    generate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "prompt": "a lighthouse at dawn",
                 *       "resolution": "2K",
                 *       "aspect_ratio": "16:9"
                 *     }
                 */
                "application/json": {
                    /** @default false */
                    async?: boolean;
                    callback_url?: string;
                    client_request_id?: string;
                    /** @description With `async: true`: cancel the job (failed, `CANCELED`, refunded) if it has not ended this many seconds after submit. */
                    cancel_after?: number;
                    /** @enum {string} */
                    response_mode?: "bytes" | "urls";
                    /** @enum {string} */
                    output_format?: "png" | "jpg";
                    /** @default 1 */
                    num_output_images?: number;
                    /**
                     * @description `report` (default): each output says which expected subjects (named in the prompt, or recognised in the input) it kept, with a similarity on every recognised face. `retry`: also make again, at most twice, an output missing an expected subject, and deliver its best attempt (you pay for the delivered outputs only). `off`: no identity block.
                     * @default report
                     * @enum {string}
                     */
                    identity_check?: "report" | "retry" | "off";
                    /** @enum {string} */
                    aspect_ratio?: "auto" | "1:1" | "3:4" | "4:3" | "9:16" | "16:9";
                    /** @enum {string} */
                    resolution?: "1K" | "2K" | "4K";
                    /** @enum {string} */
                    quality?: "auto" | "low" | "medium" | "high" | "xhigh" | "max";
                    size?: string;
                    base_model?: string;
                    prompt: string;
                };
            };
        };
        responses: {
            /** @description The image result (`images` filled for `response_mode: bytes`, `download_urls` for `urls`). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    "X-Job-Id": components["headers"]["X-Job-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description The job handle of an asynchronous submit. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobHandle"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The synchronous budget of 600 s ran out (`TIMEOUT`); the reservation is released. Resubmit with `async: true`. */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    generate_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "prompt": "a lighthouse at dawn",
                 *       "resolution": "2K",
                 *       "aspect_ratio": "16:9"
                 *     }
                 */
                "application/json": {
                    /** @default false */
                    async?: boolean;
                    callback_url?: string;
                    client_request_id?: string;
                    /** @description With `async: true`: cancel the job (failed, `CANCELED`, refunded) if it has not ended this many seconds after submit. */
                    cancel_after?: number;
                    /** @enum {string} */
                    response_mode?: "bytes" | "urls";
                    /** @enum {string} */
                    output_format?: "png" | "jpg";
                    /** @default 1 */
                    num_output_images?: number;
                    /**
                     * @description `report` (default): each output says which expected subjects (named in the prompt, or recognised in the input) it kept, with a similarity on every recognised face. `retry`: also make again, at most twice, an output missing an expected subject, and deliver its best attempt (you pay for the delivered outputs only). `off`: no identity block.
                     * @default report
                     * @enum {string}
                     */
                    identity_check?: "report" | "retry" | "off";
                    /** @enum {string} */
                    aspect_ratio?: "auto" | "1:1" | "3:4" | "4:3" | "9:16" | "16:9";
                    /** @enum {string} */
                    resolution?: "1K" | "2K" | "4K";
                    /** @enum {string} */
                    quality?: "auto" | "low" | "medium" | "high" | "xhigh" | "max";
                    size?: string;
                    base_model?: string;
                    prompt: string;
                };
            };
        };
        responses: {
            /** @description The image result (`images` filled for `response_mode: bytes`, `download_urls` for `urls`). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    "X-Job-Id": components["headers"]["X-Job-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description The job handle of an asynchronous submit. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobHandle"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The synchronous budget of 600 s ran out (`TIMEOUT`); the reservation is released. Resubmit with `async: true`. */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    enhance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "image": "https://example.com/photo.jpg",
                 *       "profile_ids": [
                 *         "prf_5kq2x8"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @default false */
                    async?: boolean;
                    callback_url?: string;
                    client_request_id?: string;
                    /** @description With `async: true`: cancel the job (failed, `CANCELED`, refunded) if it has not ended this many seconds after submit. */
                    cancel_after?: number;
                    /** @enum {string} */
                    response_mode?: "bytes" | "urls";
                    /** @enum {string} */
                    output_format?: "png" | "jpg";
                    /** @default 1 */
                    num_output_images?: number;
                    /**
                     * @description `report` (default): each output says which expected subjects (named in the prompt, or recognised in the input) it kept, with a similarity on every recognised face. `retry`: also make again, at most twice, an output missing an expected subject, and deliver its best attempt (you pay for the delivered outputs only). `off`: no identity block.
                     * @default report
                     * @enum {string}
                     */
                    identity_check?: "report" | "retry" | "off";
                    base_model?: unknown;
                    aspect_ratio?: unknown;
                    resolution?: unknown;
                    /** @default  */
                    prompt?: string;
                    profile_ids?: string[];
                    /** @description Base64 (bare or a data URI), an http(s) URL, or `upload:<upload_id>` from POST /uploads. JPEG, PNG, WebP or HEIC/HEIF. */
                    image: string;
                };
            };
        };
        responses: {
            /** @description The image result (`images` filled for `response_mode: bytes`, `download_urls` for `urls`). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    "X-Job-Id": components["headers"]["X-Job-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description The job handle of an asynchronous submit. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobHandle"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The synchronous budget of 600 s ran out (`TIMEOUT`); the reservation is released. Resubmit with `async: true`. */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    enhance_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "image": "https://example.com/photo.jpg",
                 *       "profile_ids": [
                 *         "prf_5kq2x8"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @default false */
                    async?: boolean;
                    callback_url?: string;
                    client_request_id?: string;
                    /** @description With `async: true`: cancel the job (failed, `CANCELED`, refunded) if it has not ended this many seconds after submit. */
                    cancel_after?: number;
                    /** @enum {string} */
                    response_mode?: "bytes" | "urls";
                    /** @enum {string} */
                    output_format?: "png" | "jpg";
                    /** @default 1 */
                    num_output_images?: number;
                    /**
                     * @description `report` (default): each output says which expected subjects (named in the prompt, or recognised in the input) it kept, with a similarity on every recognised face. `retry`: also make again, at most twice, an output missing an expected subject, and deliver its best attempt (you pay for the delivered outputs only). `off`: no identity block.
                     * @default report
                     * @enum {string}
                     */
                    identity_check?: "report" | "retry" | "off";
                    base_model?: unknown;
                    aspect_ratio?: unknown;
                    resolution?: unknown;
                    /** @default  */
                    prompt?: string;
                    profile_ids?: string[];
                    /** @description Base64 (bare or a data URI), an http(s) URL, or `upload:<upload_id>` from POST /uploads. JPEG, PNG, WebP or HEIC/HEIF. */
                    image: string;
                };
            };
        };
        responses: {
            /** @description The image result (`images` filled for `response_mode: bytes`, `download_urls` for `urls`). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    "X-Job-Id": components["headers"]["X-Job-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description The job handle of an asynchronous submit. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobHandle"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The synchronous budget of 600 s ran out (`TIMEOUT`); the reservation is released. Resubmit with `async: true`. */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    remix: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "input_image": "https://example.com/content.jpg",
                 *       "reference_image": "https://example.com/style.jpg"
                 *     }
                 */
                "application/json": {
                    /** @default false */
                    async?: boolean;
                    callback_url?: string;
                    client_request_id?: string;
                    /** @description With `async: true`: cancel the job (failed, `CANCELED`, refunded) if it has not ended this many seconds after submit. */
                    cancel_after?: number;
                    /** @enum {string} */
                    response_mode?: "bytes" | "urls";
                    /** @enum {string} */
                    output_format?: "png" | "jpg";
                    /** @default 1 */
                    num_output_images?: number;
                    /**
                     * @description `report` (default): each output says which expected subjects (named in the prompt, or recognised in the input) it kept, with a similarity on every recognised face. `retry`: also make again, at most twice, an output missing an expected subject, and deliver its best attempt (you pay for the delivered outputs only). `off`: no identity block.
                     * @default report
                     * @enum {string}
                     */
                    identity_check?: "report" | "retry" | "off";
                    base_model?: unknown;
                    aspect_ratio?: unknown;
                    resolution?: unknown;
                    /** @default  */
                    prompt?: string;
                    profile_ids?: string[];
                    /** @description Base64 (bare or a data URI), an http(s) URL, or `upload:<upload_id>` from POST /uploads. JPEG, PNG, WebP or HEIC/HEIF. */
                    input_image: string;
                    /** @description Base64 (bare or a data URI), an http(s) URL, or `upload:<upload_id>` from POST /uploads. JPEG, PNG, WebP or HEIC/HEIF. */
                    reference_image: string;
                };
            };
        };
        responses: {
            /** @description The image result (`images` filled for `response_mode: bytes`, `download_urls` for `urls`). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    "X-Job-Id": components["headers"]["X-Job-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description The job handle of an asynchronous submit. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobHandle"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The synchronous budget of 600 s ran out (`TIMEOUT`); the reservation is released. Resubmit with `async: true`. */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    remix_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "input_image": "https://example.com/content.jpg",
                 *       "reference_image": "https://example.com/style.jpg"
                 *     }
                 */
                "application/json": {
                    /** @default false */
                    async?: boolean;
                    callback_url?: string;
                    client_request_id?: string;
                    /** @description With `async: true`: cancel the job (failed, `CANCELED`, refunded) if it has not ended this many seconds after submit. */
                    cancel_after?: number;
                    /** @enum {string} */
                    response_mode?: "bytes" | "urls";
                    /** @enum {string} */
                    output_format?: "png" | "jpg";
                    /** @default 1 */
                    num_output_images?: number;
                    /**
                     * @description `report` (default): each output says which expected subjects (named in the prompt, or recognised in the input) it kept, with a similarity on every recognised face. `retry`: also make again, at most twice, an output missing an expected subject, and deliver its best attempt (you pay for the delivered outputs only). `off`: no identity block.
                     * @default report
                     * @enum {string}
                     */
                    identity_check?: "report" | "retry" | "off";
                    base_model?: unknown;
                    aspect_ratio?: unknown;
                    resolution?: unknown;
                    /** @default  */
                    prompt?: string;
                    profile_ids?: string[];
                    /** @description Base64 (bare or a data URI), an http(s) URL, or `upload:<upload_id>` from POST /uploads. JPEG, PNG, WebP or HEIC/HEIF. */
                    input_image: string;
                    /** @description Base64 (bare or a data URI), an http(s) URL, or `upload:<upload_id>` from POST /uploads. JPEG, PNG, WebP or HEIC/HEIF. */
                    reference_image: string;
                };
            };
        };
        responses: {
            /** @description The image result (`images` filled for `response_mode: bytes`, `download_urls` for `urls`). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    "X-Job-Id": components["headers"]["X-Job-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description The job handle of an asynchronous submit. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "X-Service-Deprecation-Date": components["headers"]["X-Service-Deprecation-Date"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobHandle"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The synchronous budget of 600 s ran out (`TIMEOUT`); the reservation is released. Resubmit with `async: true`. */
            504: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "size_bytes": 12582912,
                 *       "content_type": "image/jpeg"
                 *     }
                 */
                "application/json": {
                    /** @description The exact size of the file, 1 to 52428800 bytes (50 MiB); the upload URL accepts no other length. */
                    size_bytes: number;
                    /**
                     * @description The file’s type; sent back as the Content-Type of the PUT.
                     * @enum {string}
                     */
                    content_type: "image/jpeg" | "image/png" | "image/webp" | "image/heic" | "image/heif";
                };
            };
        };
        responses: {
            /** @description Where to PUT the bytes, and the reference to use afterwards. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadTicket"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createUpload_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "size_bytes": 12582912,
                 *       "content_type": "image/jpeg"
                 *     }
                 */
                "application/json": {
                    /** @description The exact size of the file, 1 to 52428800 bytes (50 MiB); the upload URL accepts no other length. */
                    size_bytes: number;
                    /**
                     * @description The file’s type; sent back as the Content-Type of the PUT.
                     * @enum {string}
                     */
                    content_type: "image/jpeg" | "image/png" | "image/webp" | "image/heic" | "image/heif";
                };
            };
        };
        responses: {
            /** @description Where to PUT the bytes, and the reference to use afterwards. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadTicket"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalog. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelList"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listModels_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalog. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelList"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listJobs: {
        parameters: {
            query?: {
                status?: "pending" | "running" | "succeeded" | "failed";
                operation?: "edit" | "generate" | "enhance" | "remix";
                created_after?: string;
                cursor?: string;
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of jobs. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobPage"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listJobs_v1: {
        parameters: {
            query?: {
                status?: "pending" | "running" | "succeeded" | "failed";
                operation?: "edit" | "generate" | "enhance" | "remix";
                created_after?: string;
                cursor?: string;
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of jobs. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobPage"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job status; the same body a callback carries. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStatus"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Expired (`JOB_EXPIRED` 24 h after completion, `DOWNLOAD_EXPIRED`). */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getJob_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job status; the same body a callback carries. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStatus"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Expired (`JOB_EXPIRED` 24 h after completion, `DOWNLOAD_EXPIRED`). */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listJobDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempts. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobDeliveries"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Expired (`JOB_EXPIRED` 24 h after completion, `DOWNLOAD_EXPIRED`). */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listJobDeliveries_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempts. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobDeliveries"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Expired (`JOB_EXPIRED` 24 h after completion, `DOWNLOAD_EXPIRED`). */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    redeliverJobCallback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Where to send this delivery; default: the job’s own `callback_url`. */
                    callback_url?: string;
                };
            };
        };
        responses: {
            /** @description The delivery is queued; its attempts appear under /deliveries. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redelivery"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The job cannot be canceled: it has ended, or it is a synchronous call (`JOB_NOT_CANCELABLE`). */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Expired (`JOB_EXPIRED` 24 h after completion, `DOWNLOAD_EXPIRED`). */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    redeliverJobCallback_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Where to send this delivery; default: the job’s own `callback_url`. */
                    callback_url?: string;
                };
            };
        };
        responses: {
            /** @description The delivery is queued; its attempts appear under /deliveries. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redelivery"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The job cannot be canceled: it has ended, or it is a synchronous call (`JOB_NOT_CANCELABLE`). */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Expired (`JOB_EXPIRED` 24 h after completion, `DOWNLOAD_EXPIRED`). */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The canceled job’s status. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStatus"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The job cannot be canceled: it has ended, or it is a synchronous call (`JOB_NOT_CANCELABLE`). */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    cancelJob_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The canceled job’s status. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobStatus"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The job cannot be canceled: it has ended, or it is a synchronous call (`JOB_NOT_CANCELABLE`). */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    download: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to the image. */
            302: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Where the image is. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Expired (`JOB_EXPIRED` 24 h after completion, `DOWNLOAD_EXPIRED`). */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    download_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to the image. */
            302: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Where the image is. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Expired (`JOB_EXPIRED` 24 h after completion, `DOWNLOAD_EXPIRED`). */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    addProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "image_urls": [
                 *         "https://example.com/1.jpg",
                 *         "https://example.com/2.jpg",
                 *         "https://example.com/3.jpg",
                 *         "https://example.com/4.jpg",
                 *         "https://example.com/5.jpg"
                 *       ],
                 *       "training_tier": "fast",
                 *       "tag": "customer-42"
                 *     }
                 */
                "application/json": {
                    /** @description Each an http(s) URL the service fetches, or `upload:<upload_id>`: the caller’s own direct upload (POST /uploads), PUT before this call and used within 24 h of arriving. JPEG, PNG, WebP or HEIC/HEIF. */
                    image_urls: (string)[];
                    /**
                     * @default standard
                     * @enum {string}
                     */
                    training_tier?: "standard" | "fast";
                    tag?: string;
                    /** @enum {string} */
                    model_version?: "v1" | "v2";
                    /** @description Gets a signed POST of the profile status body when training ends (READY or ERROR), like a job callback. */
                    callback_url?: string;
                };
            };
        };
        responses: {
            /** @description The new profile’s id. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileCreated"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    addProfile_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "image_urls": [
                 *         "https://example.com/1.jpg",
                 *         "https://example.com/2.jpg",
                 *         "https://example.com/3.jpg",
                 *         "https://example.com/4.jpg",
                 *         "https://example.com/5.jpg"
                 *       ],
                 *       "training_tier": "fast",
                 *       "tag": "customer-42"
                 *     }
                 */
                "application/json": {
                    /** @description Each an http(s) URL the service fetches, or `upload:<upload_id>`: the caller’s own direct upload (POST /uploads), PUT before this call and used within 24 h of arriving. JPEG, PNG, WebP or HEIC/HEIF. */
                    image_urls: (string)[];
                    /**
                     * @default standard
                     * @enum {string}
                     */
                    training_tier?: "standard" | "fast";
                    tag?: string;
                    /** @enum {string} */
                    model_version?: "v1" | "v2";
                    /** @description Gets a signed POST of the profile status body when training ends (READY or ERROR), like a job callback. */
                    callback_url?: string;
                };
            };
        };
        responses: {
            /** @description The new profile’s id. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileCreated"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    preflightProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "image_urls": [
                 *         "https://example.com/1.jpg",
                 *         "https://example.com/2.jpg"
                 *       ],
                 *       "training_tier": "fast"
                 *     }
                 */
                "application/json": {
                    /** @description Each an http(s) URL the service fetches, or `upload:<upload_id>`: the caller’s own direct upload (POST /uploads), PUT before this call and used within 24 h of arriving. JPEG, PNG, WebP or HEIC/HEIF. */
                    image_urls: (string)[];
                    /**
                     * @default standard
                     * @enum {string}
                     */
                    training_tier?: "standard" | "fast";
                };
            };
        };
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreflightReport"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    preflightProfile_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "image_urls": [
                 *         "https://example.com/1.jpg",
                 *         "https://example.com/2.jpg"
                 *       ],
                 *       "training_tier": "fast"
                 *     }
                 */
                "application/json": {
                    /** @description Each an http(s) URL the service fetches, or `upload:<upload_id>`: the caller’s own direct upload (POST /uploads), PUT before this call and used within 24 h of arriving. JPEG, PNG, WebP or HEIC/HEIF. */
                    image_urls: (string)[];
                    /**
                     * @default standard
                     * @enum {string}
                     */
                    training_tier?: "standard" | "fast";
                };
            };
        };
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreflightReport"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listProfiles: {
        parameters: {
            query?: {
                tag?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every profile of the account (or with the tag). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileList"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listProfiles_v1: {
        parameters: {
            query?: {
                tag?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every profile of the account (or with the tag). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileList"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    tagProfiles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "tags": [
                 *         {
                 *           "profile_id": "prf_5kq2x8",
                 *           "tag": "customer-42"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    tags: {
                        profile_id: string;
                        tag: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description The tag report. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagReport"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    tagProfiles_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "tags": [
                 *         {
                 *           "profile_id": "prf_5kq2x8",
                 *           "tag": "customer-42"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    tags: {
                        profile_id: string;
                        tag: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description The tag report. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagReport"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getProfileStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                profile_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The profile status. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileStatus"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getProfileStatus_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                profile_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The profile status. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileStatus"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getProfilePicture: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                profile_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The picture. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "image/jpeg": string;
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getProfilePicture_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                profile_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The picture. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "image/jpeg": string;
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteProfile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                profile_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileDeleted"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteProfile_v1: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                profile_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileDeleted"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The balance does not cover the reservation (`INSUFFICIENT_BALANCE`): for an image operation, the most it can cost (its ceiling), which `detail` names with the balance; nothing is created. `BALANCE_IN_DEBT`: a refund or a lost payment dispute took more than the balance held, and no new work starts until a top-up or a credit has repaid it. */
            402: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWebhookSecret_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret and until when the previous one still signs. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    rotateWebhookSecret_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret and until when the previous one still signs. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.com/webhooks/images"
                 *     }
                 */
                "application/json": {
                    /** @description The receiver to send a signed test event to. */
                    url: string;
                };
            };
        };
        responses: {
            /** @description What the receiver answered, or why there was no answer. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestResult"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    testWebhook_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://example.com/webhooks/images"
                 *     }
                 */
                "application/json": {
                    /** @description The receiver to send a signed test event to. */
                    url: string;
                };
            };
        };
        responses: {
            /** @description What the receiver answered, or why there was no answer. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestResult"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getAccount_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getLedger: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of entries. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerPage"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getLedger_v1: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of entries. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerPage"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listTopUps: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of top-ups. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TopUpPage"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createTopUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": "25.00"
                 *     }
                 */
                "application/json": {
                    /** @description US dollars with at most two decimals, from the operator’s minimum (default 5.00) to its maximum (default 2000.00). */
                    amount: string;
                    /**
                     * @description Only `usd`.
                     * @enum {string}
                     */
                    currency?: "usd";
                    /** @description Keep the card this top-up is paid with, for auto-recharge: only from the portal’s Billing page, where a person is present (403 `PERSON_REQUIRED` with an API key); Checkout asks them to agree. */
                    save_card?: boolean;
                };
            };
        };
        responses: {
            /** @description The pending top-up and its Checkout page. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TopUpCreated"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getBillingSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingSettings"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateBillingSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "auto_recharge": {
                 *         "enabled": true,
                 *         "threshold": "5.00",
                 *         "amount": "25.00"
                 *       },
                 *       "low_balance_threshold": "10.00",
                 *       "webhook_url": "https://example.com/webhooks/account"
                 *     }
                 */
                "application/json": {
                    /** @description When a job’s or a training’s settle leaves the balance below `threshold`, the saved card is charged `amount`, at most once an hour and within the daily cap. A decline turns it off. When on: `amount` within the top-up limits and the daily cap, `threshold` below `amount` (422 otherwise). With an API key it may only be turned off or lowered (403 `PERSON_REQUIRED` otherwise): a person turns it on or raises it in the portal. */
                    auto_recharge?: {
                        enabled: boolean;
                        threshold: string;
                        amount: string;
                    };
                    /** @description Below this balance, one signed `balance.low` event is sent to `webhook_url` (null: none). */
                    low_balance_threshold?: string | null;
                    /** @description Where account events (`balance.low`, `billing.auto_recharge.charged`, `auto_recharge.failed`) are sent, signed as callbacks are. */
                    webhook_url?: string | null;
                };
            };
        };
        responses: {
            /** @description The settings now. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingSettings"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No `X-API-Key` header (`MISSING_API_KEY`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the account’s request rate (`RATE_LIMITED`); see `Retry-After`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    stripeWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event was acted on, or ignored. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StripeWebhookReceipt"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    trainerCallback: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    task_token: string;
                    /** @constant */
                    event: "heartbeat";
                } | {
                    task_token: string;
                    /** @constant */
                    event: "succeeded";
                    signature: string;
                } | {
                    task_token: string;
                    /** @constant */
                    event: "failed";
                    message: string;
                };
            };
        };
        responses: {
            /** @description The report was forwarded to the waiting training. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrainerEventAccepted"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    trainerCallback_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    task_token: string;
                    /** @constant */
                    event: "heartbeat";
                } | {
                    task_token: string;
                    /** @constant */
                    event: "succeeded";
                    signature: string;
                } | {
                    task_token: string;
                    /** @constant */
                    event: "failed";
                    message: string;
                };
            };
        };
        responses: {
            /** @description The report was forwarded to the waiting training. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrainerEventAccepted"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    providerWebhook: {
        parameters: {
            query: {
                account: string;
                job?: string;
                profile?: string;
                sig: string;
            };
            header?: never;
            path: {
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report was recorded (or was a duplicate of one recorded; a duplicate resumes a job whose first resume failed), or ignored (`accepted: false`). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderReportAccepted"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    providerWebhook_v1: {
        parameters: {
            query: {
                account: string;
                job?: string;
                profile?: string;
                sig: string;
            };
            header?: never;
            path: {
                provider: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report was recorded (or was a duplicate of one recorded; a duplicate resumes a job whose first resume failed), or ignored (`accepted: false`). */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderReportAccepted"];
                };
            };
            /** @description Invalid request (a rule of the base-model catalog, `CONTENT_MODERATION`, `MIXED_PROFILE_MODEL_VERSIONS`, `PROFILE_NOT_READY`, `IDEMPOTENCY_KEY_REUSED`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown or revoked API key (`INVALID_API_KEY`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found, including another account’s resource (`NOT_FOUND`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Validation failed (the validation error body), or `NO_IMAGE_GENERATED` (the error body; not charged). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorBody"] | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    openapi_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    docs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    docs_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    docsRenderer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The script. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    docsRenderer_v1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The script. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description The body is too large (`PAYLOAD_TOO_LARGE`); send large images by URL or as a direct upload. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal error (`INTERNAL_ERROR`); a failed engine call is refunded. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`SERVICE_UNAVAILABLE`); retry with backoff. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
}
