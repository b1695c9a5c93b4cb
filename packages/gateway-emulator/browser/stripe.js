/*
 * A stand-in of Stripe.js v3 served by the local gateway emulator (test mode, no money moves). It offers what
 * @stripe/stripe-js and @stripe/react-stripe-js use: Stripe(key) with elements(), the Payment Element (an iframe on
 * the emulator's origin that turns the card into a PaymentMethod), confirmPayment, confirmSetup,
 * confirmCardPayment, retrievePaymentIntent, handleNextAction, with Stripe.js's result and error shapes.
 */
(function () {
  'use strict';
  var base = new URL(document.currentScript ? document.currentScript.src : location.href).origin;
  var frameCount = 0;

  function form(data, prefix, out) {
    out = out || [];
    Object.keys(data).forEach(function (key) {
      var value = data[key];
      var name = prefix ? prefix + '[' + key + ']' : key;
      if (value === undefined || value === null) return;
      if (typeof value === 'object') form(value, name, out);
      else out.push(encodeURIComponent(name) + '=' + encodeURIComponent(String(value)));
    });
    return out.join('&');
  }

  function api(key, method, path, data) {
    var init = { method: method, headers: { authorization: 'Bearer ' + key } };
    var url = base + path;
    if (method === 'GET') url += (path.indexOf('?') < 0 ? '?' : '&') + form(data || {});
    else {
      init.headers['content-type'] = 'application/x-www-form-urlencoded';
      init.body = form(data || {});
    }
    return fetch(url, init).then(function (response) {
      return response.json().then(function (body) {
        return { ok: response.ok, status: response.status, body: body };
      });
    });
  }

  function intentId(clientSecret) {
    return String(clientSecret || '').split('_secret_')[0];
  }

  /** The 3-D Secure challenge in a modal, as Stripe.js shows the bank's page; resolves when it is answered. */
  function challenge(url) {
    return new Promise(function (resolve) {
      var overlay = document.createElement('div');
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-label', '3-D Secure authentication');
      overlay.style.cssText =
        'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.6);display:flex;align-items:center;justify-content:center';
      var frame = document.createElement('iframe');
      frame.title = '3-D Secure authentication';
      frame.src = url;
      frame.style.cssText =
        'width:min(420px,94vw);height:min(560px,90vh);border:0;border-radius:10px;background:#fff';
      overlay.appendChild(frame);
      function onMessage(event) {
        if (
          event.source !== frame.contentWindow ||
          !event.data ||
          event.data.type !== 'backbeat-emulator:3ds-done'
        )
          return;
        window.removeEventListener('message', onMessage);
        overlay.remove();
        resolve();
      }
      window.addEventListener('message', onMessage);
      document.body.appendChild(overlay);
    });
  }

  function PaymentElement(elements, type, options) {
    this._elements = elements;
    this._type = type;
    this._options = options || {};
    this._handlers = {};
    this._frame = null;
    this._state = { complete: false, empty: true };
    this._pending = {};
    this._id = 'emu-card-' + ++frameCount;
    this._onMessage = this._onMessage.bind(this);
  }
  PaymentElement.prototype.on = function (event, handler) {
    (this._handlers[event] = this._handlers[event] || []).push(handler);
    return this;
  };
  PaymentElement.prototype.off = function (event, handler) {
    this._handlers[event] = (this._handlers[event] || []).filter(function (h) {
      return h !== handler;
    });
    return this;
  };
  PaymentElement.prototype._emit = function (event, payload) {
    (this._handlers[event] || []).slice().forEach(function (handler) {
      handler(payload);
    });
  };
  PaymentElement.prototype.mount = function (target) {
    var node = typeof target === 'string' ? document.querySelector(target) : target;
    if (!node) throw new Error('Stripe stand-in: mount target not found');
    var appearance = (this._elements._options && this._elements._options.appearance) || {};
    var variables = appearance.variables || {};
    var query = new URLSearchParams({
      key: this._elements._stripe._key,
      id: this._id,
      theme: appearance.theme || 'stripe',
      primary: variables.colorPrimary || '',
      background: variables.colorBackground || '',
      text: variables.colorText || '',
    });
    var frame = document.createElement('iframe');
    frame.title = 'Secure card payment input frame';
    frame.setAttribute('allowtransparency', 'true');
    frame.src = base + '/_elements/card?' + query.toString();
    frame.style.cssText = 'width:100%;height:330px;border:0;display:block;background:transparent';
    node.appendChild(frame);
    this._frame = frame;
    window.addEventListener('message', this._onMessage);
  };
  PaymentElement.prototype._onMessage = function (event) {
    if (!this._frame || event.source !== this._frame.contentWindow) return;
    var data = event.data || {};
    if (data.type === 'ready') this._emit('ready', { elementType: this._type });
    if (data.type === 'resize' && data.height) this._frame.style.height = data.height + 'px';
    if (data.type === 'change') {
      this._state = { complete: data.complete, empty: data.empty };
      this._emit('change', {
        elementType: this._type,
        complete: data.complete,
        empty: data.empty,
        value: { type: 'card' },
      });
    }
    if (data.type === 'focus' || data.type === 'blur') this._emit(data.type, { elementType: this._type });
    if (data.type === 'result' && this._pending[data.nonce]) {
      this._pending[data.nonce](data);
      delete this._pending[data.nonce];
    }
  };
  /** Asks the frame to validate (and, with `create`, to turn the card into a PaymentMethod). */
  PaymentElement.prototype._ask = function (create) {
    var self = this;
    return new Promise(function (resolve) {
      if (!self._frame)
        return resolve({ error: { type: 'validation_error', message: 'The payment form is not mounted.' } });
      var nonce = Math.random().toString(36).slice(2);
      self._pending[nonce] = resolve;
      self._frame.contentWindow.postMessage({ type: create ? 'create' : 'validate', nonce: nonce }, '*');
    });
  };
  PaymentElement.prototype.update = function (options) {
    Object.assign(this._options, options || {});
  };
  PaymentElement.prototype.focus = function () {};
  PaymentElement.prototype.blur = function () {};
  PaymentElement.prototype.clear = function () {};
  PaymentElement.prototype.collapse = function () {};
  PaymentElement.prototype.unmount = function () {
    window.removeEventListener('message', this._onMessage);
    if (this._frame) this._frame.remove();
    this._frame = null;
  };
  PaymentElement.prototype.destroy = function () {
    this.unmount();
    delete this._elements._created[this._type];
  };

  function Elements(stripe, options) {
    this._stripe = stripe;
    this._options = options || {};
    this._created = {};
  }
  Elements.prototype.create = function (type, options) {
    if (type !== 'payment' && type !== 'card')
      throw new Error('Stripe stand-in: only the payment and card elements are emulated');
    var element = new PaymentElement(this, type, options);
    this._created[type] = element;
    return element;
  };
  Elements.prototype.getElement = function (type) {
    return this._created[type] || null;
  };
  Elements.prototype.update = function (options) {
    Object.assign(this._options, options || {});
  };
  Elements.prototype.fetchUpdates = function () {
    return Promise.resolve({});
  };
  Elements.prototype.on = function () {};
  Elements.prototype._element = function () {
    return this._created.payment || this._created.card || null;
  };
  Elements.prototype.submit = function () {
    var element = this._element();
    if (!element)
      return Promise.resolve({ error: { type: 'validation_error', message: 'No payment form to submit.' } });
    return element._ask(false).then(function (data) {
      return data.error ? { error: data.error } : {};
    });
  };

  function StripeInstance(key) {
    if (typeof key !== 'string' || key.indexOf('pk_') !== 0) throw new Error('Invalid publishable key');
    this._key = key;
  }
  StripeInstance.prototype._registerWrapper = function () {};
  StripeInstance.prototype.registerAppInfo = function () {};
  StripeInstance.prototype.elements = function (options) {
    return new Elements(this, options);
  };
  StripeInstance.prototype.createToken = function () {
    return Promise.resolve({
      error: { type: 'invalid_request_error', message: 'Tokens are not emulated; use PaymentMethods.' },
    });
  };
  StripeInstance.prototype.createPaymentMethod = function (options) {
    var element = options && options.elements ? options.elements._element() : options && options.element;
    if (!element)
      return Promise.resolve({
        error: { type: 'invalid_request_error', message: 'Give elements to create a PaymentMethod.' },
      });
    return element._ask(true).then(function (data) {
      return data.error ? { error: data.error } : { paymentMethod: data.paymentMethod };
    });
  };
  StripeInstance.prototype._retrieve = function (kind, clientSecret) {
    var collection = kind === 'setupIntent' ? 'setup_intents' : 'payment_intents';
    return api(this._key, 'GET', '/v1/' + collection + '/' + intentId(clientSecret), {
      client_secret: clientSecret,
    }).then(function (answer) {
      var out = {};
      if (answer.ok) out[kind] = answer.body;
      else out.error = answer.body.error;
      return out;
    });
  };
  StripeInstance.prototype.retrievePaymentIntent = function (clientSecret) {
    return this._retrieve('paymentIntent', clientSecret);
  };
  StripeInstance.prototype.retrieveSetupIntent = function (clientSecret) {
    return this._retrieve('setupIntent', clientSecret);
  };
  /** Confirms an intent with a PaymentMethod, running 3-D Secure when the bank asks, like Stripe.js. */
  StripeInstance.prototype._confirm = function (kind, clientSecret, paymentMethod, returnUrl, redirect) {
    var self = this;
    var collection = kind === 'setupIntent' ? 'setup_intents' : 'payment_intents';
    var data = { client_secret: clientSecret, return_url: returnUrl };
    if (paymentMethod) data.payment_method = paymentMethod;
    return api(this._key, 'POST', '/v1/' + collection + '/' + intentId(clientSecret) + '/confirm', data).then(
      function (answer) {
        if (!answer.ok) return { error: answer.body.error };
        var intent = answer.body;
        var next = Promise.resolve(intent);
        if (intent.status === 'requires_action' && intent.next_action && intent.next_action.use_stripe_sdk) {
          next = challenge(intent.next_action.use_stripe_sdk.stripe_js).then(function () {
            return self._retrieve(kind, clientSecret).then(function (result) {
              return result[kind] || intent;
            });
          });
        }
        return next.then(function (settled) {
          var failed = kind === 'setupIntent' ? settled.last_setup_error : settled.last_payment_error;
          if (settled.status === 'requires_payment_method' && failed)
            return {
              error: Object.assign(
                {},
                failed,
                (function () {
                  var o = {};
                  o[kind === 'setupIntent' ? 'setup_intent' : 'payment_intent'] = settled;
                  return o;
                })(),
              ),
            };
          if (
            redirect !== 'if_required' &&
            returnUrl &&
            (settled.status === 'succeeded' || settled.status === 'processing')
          ) {
            var target = new URL(returnUrl);
            target.searchParams.set(kind === 'setupIntent' ? 'setup_intent' : 'payment_intent', settled.id);
            target.searchParams.set(
              (kind === 'setupIntent' ? 'setup_intent' : 'payment_intent') + '_client_secret',
              clientSecret,
            );
            target.searchParams.set('redirect_status', 'succeeded');
            window.location.assign(target.toString());
            return new Promise(function () {});
          }
          var out = {};
          out[kind] = settled;
          return out;
        });
      },
    );
  };
  StripeInstance.prototype._confirmWithElements = function (kind, options) {
    var self = this;
    var elements = options.elements;
    var clientSecret = options.clientSecret || (elements && elements._options.clientSecret);
    var params = options.confirmParams || {};
    if (!clientSecret)
      return Promise.resolve({ error: { type: 'invalid_request_error', message: 'Missing clientSecret.' } });
    var element = elements ? elements._element() : null;
    var method = params.payment_method
      ? Promise.resolve({ paymentMethod: { id: params.payment_method } })
      : element
        ? element._ask(true)
        : Promise.resolve({ error: { type: 'invalid_request_error', message: 'No payment form.' } });
    return method.then(function (created) {
      if (created.error) return { error: created.error };
      return self._confirm(kind, clientSecret, created.paymentMethod.id, params.return_url, options.redirect);
    });
  };
  StripeInstance.prototype.confirmPayment = function (options) {
    return this._confirmWithElements('paymentIntent', options || {});
  };
  StripeInstance.prototype.confirmSetup = function (options) {
    return this._confirmWithElements('setupIntent', options || {});
  };
  StripeInstance.prototype.confirmCardPayment = function (clientSecret, data) {
    var method = data && data.payment_method;
    var id = typeof method === 'string' ? method : null;
    if (method && typeof method === 'object' && method.card && method.card._ask) {
      var self = this;
      return method.card._ask(true).then(function (created) {
        if (created.error) return { error: created.error };
        return self._confirm('paymentIntent', clientSecret, created.paymentMethod.id, null, 'if_required');
      });
    }
    return this._confirm('paymentIntent', clientSecret, id, null, 'if_required');
  };
  StripeInstance.prototype.confirmCardSetup = function (clientSecret, data) {
    var method = data && typeof data.payment_method === 'string' ? data.payment_method : null;
    return this._confirm('setupIntent', clientSecret, method, null, 'if_required');
  };
  StripeInstance.prototype.handleNextAction = function (options) {
    var self = this;
    var clientSecret = options.clientSecret;
    var kind = clientSecret.indexOf('seti_') === 0 ? 'setupIntent' : 'paymentIntent';
    return this._retrieve(kind, clientSecret).then(function (result) {
      var intent = result[kind];
      if (!intent || intent.status !== 'requires_action') return result;
      return challenge(intent.next_action.use_stripe_sdk.stripe_js).then(function () {
        return self._retrieve(kind, clientSecret);
      });
    });
  };

  function Stripe(key) {
    return new StripeInstance(key);
  }
  // The release train @stripe/stripe-js expects (Stripe.js reports it the same way).
  Stripe.version = 'endive';
  Stripe.emulated = true;
  window.Stripe = Stripe;
})();
