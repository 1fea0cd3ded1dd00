<?php

/**
 * True when a webhook is authentic, unmodified and fresh.
 * $body: the raw request body (file_get_contents('php://input')); $headers: lower-case names;
 * $secretBase64: the endpoint's signing secret; $host: your endpoint's host (with its port when
 * not 443); $toleranceSeconds: how far x-fc-date may be from now (0 disables); $now: Unix seconds.
 */
function verify_webhook(
    string $body,
    array $headers,
    string $secretBase64,
    string $host,
    int $toleranceSeconds = 300,
    ?int $now = null
): bool {
    $nonce = $headers['x-fc-nonce'] ?? '';
    $date = $headers['x-fc-date'] ?? '';
    $authorization = $headers['x-fc-authorization'] ?? '';
    $at = strpos($authorization, '&Signature=');
    if ($nonce === '' || $date === '' || $at === false) {
        return false;
    }
    if ($toleranceSeconds > 0) {
        $sent = DateTimeImmutable::createFromFormat('D, d M Y H:i:s \G\M\T', $date, new DateTimeZone('UTC'));
        if ($sent === false || abs(($now ?? time()) - $sent->getTimestamp()) > $toleranceSeconds) {
            return false;
        }
    }

    $key = base64_decode($secretBase64);
    $contentHash = base64_encode(hash('sha512', $body, true));
    $signature = base64_encode(hash_hmac('sha512', "POST\n$nonce;$date;$host;$contentHash", $key, true));
    $bodySignature = base64_encode(hash_hmac('sha512', $body, $key, true));
    // hash_equals: constant-time comparison of two strings.
    return hash_equals($contentHash, $headers['x-fc-content-sha512'] ?? '')
        && hash_equals($signature, substr($authorization, $at + strlen('&Signature=')))
        && hash_equals($bodySignature, $headers['x-fc-signature'] ?? '');
}

// Test harness: php verify.php secret=… host=… [tolerance=300] [now=<Unix seconds>] x-fc-…=… < body
if (PHP_SAPI === 'cli' && realpath($argv[0]) === __FILE__) {
    $args = [];
    foreach (array_slice($argv, 1) as $arg) {
        [$name, $value] = explode('=', $arg, 2);
        $args[$name] = $value;
    }
    $now = isset($args['now']) ? (int) $args['now'] : null;
    $ok = verify_webhook(
        file_get_contents('php://stdin'),
        $args,
        $args['secret'],
        $args['host'],
        (int) ($args['tolerance'] ?? 300),
        $now
    );
    echo $ok ? "ok\n" : "fail\n";
}
