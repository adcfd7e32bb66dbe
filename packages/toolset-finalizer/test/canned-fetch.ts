// The provider SDKs' transport in tests: what each client sends is recorded,
// and each request is answered with the next canned response body.

export interface Recorded {
  readonly url: string;
  readonly body: Record<string, unknown>;
}

/** A fetch that records each request body and answers with the next canned response. */
export function cannedFetch(responses: readonly unknown[]): { fetch: typeof fetch; requests: Recorded[] } {
  const requests: Recorded[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    requests.push({ url, body: JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as Record<string, unknown> });
    const response = responses[Math.min(requests.length, responses.length) - 1];
    return Promise.resolve(new Response(JSON.stringify(response), { status: 200, headers: { 'content-type': 'application/json' } }));
  };
  return { fetch, requests };
}
