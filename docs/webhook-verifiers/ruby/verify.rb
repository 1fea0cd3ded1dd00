require 'openssl'
require 'time'

# True when a webhook is authentic, unmodified and fresh.
# body: the raw request body (before any JSON parsing, e.g. request.raw_post); headers: lower-case
# names; secret_base64: the endpoint's signing secret; host: your endpoint's host (with its port
# when not 443); tolerance_seconds: how far x-fc-date may be from now (0 disables); now: Unix seconds.
def verify_webhook(body, headers, secret_base64, host, tolerance_seconds: 300, now: Time.now.to_f)
  nonce = headers['x-fc-nonce'].to_s
  date = headers['x-fc-date'].to_s
  authorization = headers['x-fc-authorization'].to_s
  return false if nonce.empty? || date.empty? || !authorization.include?('&Signature=')
  if tolerance_seconds.positive?
    sent = begin
      Time.httpdate(date).to_f
    rescue ArgumentError
      return false
    end
    return false if (now - sent).abs > tolerance_seconds
  end

  key = secret_base64.unpack1('m') # Base64-decode
  content_hash = [OpenSSL::Digest::SHA512.digest(body)].pack('m0') # Base64-encode
  to_sign = "POST\n#{nonce};#{date};#{host};#{content_hash}"
  signature = [OpenSSL::HMAC.digest('SHA512', key, to_sign)].pack('m0')
  body_signature = [OpenSSL::HMAC.digest('SHA512', key, body)].pack('m0')
  # OpenSSL.secure_compare: constant-time comparison of two strings.
  OpenSSL.secure_compare(content_hash, headers['x-fc-content-sha512'].to_s) &&
    OpenSSL.secure_compare(signature, authorization.split('&Signature=', 2)[1].to_s) &&
    OpenSSL.secure_compare(body_signature, headers['x-fc-signature'].to_s)
end

# Test harness: ruby verify.rb secret=… host=… [tolerance=300] [now=<Unix seconds>] x-fc-…=… < body
if $PROGRAM_NAME == __FILE__
  args = ARGV.to_h { |arg| arg.split('=', 2) }
  body = $stdin.binmode.read
  now = args.key?('now') ? Float(args['now']) : Time.now.to_f
  ok = verify_webhook(body, args, args['secret'], args['host'],
                      tolerance_seconds: Integer(args.fetch('tolerance', '300')), now: now)
  puts(ok ? 'ok' : 'fail')
end
