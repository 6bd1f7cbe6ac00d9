/**
 * A custom API exception and a custom exception handler, as the framework's documentation
 * shows them.
 */
import { exceptions, views, type Response } from 'api_framework';

/** Raised when a backing service is down: 503 with its own detail and code. */
export class ServiceUnavailable extends exceptions.APIException {
  static override statusCode = 503;
  static override defaultDetail = 'Service temporarily unavailable, try again later.';
  static override defaultCode = 'service_unavailable';
}

/**
 * The standard exception handler, plus the HTTP status code in the error body.
 */
export async function statusCodeExceptionHandler(
  exc: unknown,
  context: views.ExceptionHandlerContext,
): Promise<Response | null> {
  // Call the framework's default exception handler first,
  // to get the standard error response.
  const response = await views.exceptionHandler(exc, context);

  // Now add the HTTP status code to the response.
  if (response !== null && typeof response.data === 'object' && response.data !== null) {
    Object.assign(response.data, { status_code: response.statusCode });
  }
  return response;
}
