package dev.perflab.sprout.request;

/**
 * Reads a request head: {@code head[0, end)} holds the request line and the header lines, without the empty line
 * that ends them. Both readers answer the same for the same bytes (SproutReadersAgreeTest): the same
 * {@link SproutRequest}, or a {@link BadRequest} with the same status.
 *
 * <p>The rules: a request line of exactly {@code method SP target SP version}, the method a token, the target
 * visible ASCII, the version {@code HTTP/1.1} or {@code HTTP/1.0}; header lines {@code name ":" value}, the name a
 * token, the value without the white space around it, no control character but HT anywhere (400); at most
 * {@link SproutRequest#MAX_HEADERS} of them (431); one {@code Content-Length} of digits (400; over 18 digits 413),
 * one {@code Transfer-Encoding}, which must be {@code chunked}, never both; HTTP/1.1 has exactly one {@code Host}.
 */
public interface RequestReader {

    SproutRequest read(byte[] head, int end) throws BadRequest;

    /** Whether {@code c} is a token character (RFC 9110 tchar). */
    static boolean isTchar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || (c < 128 && "!#$%&'*+-.^_`|~".indexOf(c) >= 0);
    }
}
