/** What a use case answers: an HTTP status and a JSON body (undefined: an empty body). */
export interface Answer {
  status: number;
  body?: unknown;
}
