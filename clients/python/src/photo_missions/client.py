"""The client: one object per credential, with the mission interface (missions, submissions,
images, webhooks, field work for zoomers) and the order interface (orders, delivered photos)."""
from __future__ import annotations

import base64
import json
import random
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from .errors import OAuthError, ProblemError, parse_retry_after

__version__ = "1.0.0"

V1 = "/api/v1"
ORDERS = "/api/orders/v1"
IDEMPOTENT_METHODS = {"GET", "HEAD", "PUT", "DELETE"}
RETRYABLE_STATUS = {500, 502, 503, 504}

Json = Dict[str, Any]
PhotoUpload = Union[bytes, Tuple[str, bytes]]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are answered to the caller, never followed with credentials attached."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def _open(request: urllib.request.Request, timeout: float):  # type: ignore[no-untyped-def]
    """The response, whatever its status (an HTTPError is a response too)."""
    try:
        return _opener.open(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        return error


def _problem_from(response) -> ProblemError:  # type: ignore[no-untyped-def]
    status = response.status if hasattr(response, "status") else response.code
    raw = response.read()
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        body = None
    problem: Json = dict(body) if isinstance(body, dict) else {}
    problem.setdefault("type", "about:blank")
    problem.setdefault("title", f"HTTP {status}")
    problem["status"] = status
    problem.setdefault("code", f"http_{status}")
    if "detail" not in problem and raw and not isinstance(body, dict):
        problem["detail"] = raw[:500].decode("utf-8", "replace")
    return ProblemError(problem, response.headers.get("x-request-id"), parse_retry_after(response.headers.get("retry-after")))


class ClientCredentials:
    """OAuth 2.0 client credentials: the token is cached and refreshed ``refresh_margin`` seconds
    before it expires; the token endpoint is discovered (RFC 8414) unless given."""

    def __init__(self, origin: str, client_id: str, client_secret: str, scope: Optional[str] = None,
                 token_url: Optional[str] = None, refresh_margin: int = 60, timeout: float = 30.0):
        self._origin = origin
        self._client_id = client_id
        self._client_secret = client_secret
        self._scope = scope
        self._token_url = token_url
        self._margin = refresh_margin
        self._timeout = timeout
        self._token: Optional[str] = None
        self._expires_at = 0.0
        self._lock = threading.Lock()
        #: How many tokens were fetched (observability; tests).
        self.tokens_fetched = 0

    def authorization(self) -> str:
        return f"Bearer {self.token()}"

    def invalidate(self) -> None:
        with self._lock:
            self._token = None

    def token(self) -> str:
        with self._lock:
            if self._token is None or time.time() >= self._expires_at - self._margin:
                self._token, self._expires_at = self._fetch()
            return self._token

    def _discover(self) -> str:
        request = urllib.request.Request(f"{self._origin}/.well-known/oauth-authorization-server", headers={"accept": "application/json"})
        response = _open(request, self._timeout)
        with response:
            if response.status != 200:
                raise OAuthError("discovery_failed", f"the metadata answered {response.status}", response.status)
            endpoint = json.loads(response.read().decode("utf-8")).get("token_endpoint")
        if not isinstance(endpoint, str):
            raise OAuthError("discovery_failed", "the metadata names no token_endpoint", 200)
        return endpoint

    def _fetch(self) -> Tuple[str, float]:
        if self._token_url is None:
            self._token_url = self._discover()
        form = {"grant_type": "client_credentials"}
        if self._scope:
            form["scope"] = self._scope
        # RFC 6749 section 2.3.1: form-encode the id and secret before base64 (client_secret_basic).
        pair = f"{urllib.parse.quote_plus(self._client_id)}:{urllib.parse.quote_plus(self._client_secret)}"
        headers = {
            "authorization": "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii"),
            "content-type": "application/x-www-form-urlencoded",
            "accept": "application/json",
        }
        for attempt in range(3):
            requested_at = time.time()
            request = urllib.request.Request(self._token_url, data=urllib.parse.urlencode(form).encode("ascii"), headers=headers, method="POST")
            response = _open(request, self._timeout)
            with response:
                status = response.status if hasattr(response, "status") else response.code
                try:
                    body = json.loads(response.read().decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError):
                    body = {}
                retry_after = parse_retry_after(response.headers.get("retry-after"))
            if status == 200 and isinstance(body.get("access_token"), str):
                self.tokens_fetched += 1
                return body["access_token"], requested_at + float(body.get("expires_in", 0))
            if status == 429 and retry_after is not None and retry_after <= 60 and attempt < 2:
                time.sleep(retry_after)
                continue
            raise OAuthError(str(body.get("error", f"http_{status}")), str(body.get("error_description", "The token request failed.")), status)
        raise OAuthError("temporarily_unavailable", "The token endpoint kept answering 429.", 429)


class ApiKey:
    """An organisation API key (``pm_live_...``): the order interface only."""

    def __init__(self, key: str):
        self._key = key

    def authorization(self) -> str:
        return f"Bearer {self._key}"

    def invalidate(self) -> None:
        """A key does not expire by itself: a 401 means it was revoked."""


class Download:
    """A streamed download: read it in chunks (``iter_chunks``) or ``save_to`` a file; never held in memory."""

    def __init__(self, response):  # type: ignore[no-untyped-def]
        self._response = response
        self.content_type: Optional[str] = response.headers.get("content-type")
        length = response.headers.get("content-length")
        self.content_length: Optional[int] = int(length) if length is not None else None

    def iter_chunks(self, size: int = 64 * 1024) -> Iterator[bytes]:
        with self._response:
            while True:
                chunk = self._response.read(size)
                if not chunk:
                    return
                yield chunk

    def save_to(self, path: str) -> int:
        written = 0
        with open(path, "wb") as out:
            for chunk in self.iter_chunks():
                out.write(chunk)
                written += len(chunk)
        return written

    def close(self) -> None:
        self._response.close()

    def __enter__(self) -> "Download":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transport:
    """One HTTP path for every call: retries 429 after Retry-After; 5xx and network failures only
    when repeating cannot do anything twice (GET, PUT, DELETE, or a POST with an Idempotency-Key,
    which this client sets on every POST)."""

    def __init__(self, origin: str, auth: Union[ClientCredentials, ApiKey], max_retries: int, base_delay: float, max_delay: float, timeout: float):
        self.origin = origin
        self.auth = auth
        self.max_retries = max_retries
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.timeout = timeout

    def url(self, path: str, query: Optional[Mapping[str, Any]] = None) -> str:
        url = path if path.startswith("http") else self.origin + path
        params = {k: (",".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v).lower() if isinstance(v, bool) else v)
                  for k, v in (query or {}).items() if v is not None}
        return url + ("?" + urllib.parse.urlencode(params) if params else "")

    def send(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, json_body: Any = None,
             body: Optional[bytes] = None, content_type: Optional[str] = None, authenticated: bool = True,
             idempotency_key: Optional[str] = None, accept: str = "application/json"):  # type: ignore[no-untyped-def]
        headers = {"accept": accept, "user-agent": f"photo-missions-python/{__version__}"}
        data = body
        if json_body is not None:
            data = json.dumps(json_body).encode("utf-8")
            headers["content-type"] = "application/json"
        elif content_type:
            headers["content-type"] = content_type
        if method == "POST":
            # The same key on every attempt: a retried POST is answered with the first response.
            headers["idempotency-key"] = idempotency_key or str(uuid.uuid4())
        retriable = method in IDEMPOTENT_METHODS or "idempotency-key" in headers
        url = self.url(path, query)
        refreshed = False
        attempt = 0
        while True:
            if authenticated:
                headers["authorization"] = self.auth.authorization()
            request = urllib.request.Request(url, data=data, headers=headers, method=method)
            try:
                response = _open(request, self.timeout)
            except (urllib.error.URLError, OSError):
                if not retriable or attempt >= self.max_retries:
                    raise
                time.sleep(self._backoff(attempt))
                attempt += 1
                continue
            status = response.status if hasattr(response, "status") else response.code
            if 200 <= status < 300:
                return response
            if status == 401 and authenticated and not refreshed:
                # A cached token can be revoked or expire early: get a fresh one, once.
                refreshed = True
                response.close()
                self.auth.invalidate()
                continue
            retry_after = parse_retry_after(response.headers.get("retry-after"))
            wait: Optional[float] = None
            if status == 429:
                wait = float(retry_after if retry_after is not None else 1)
            elif retriable and status in RETRYABLE_STATUS:
                wait = max(float(retry_after or 0), self._backoff(attempt))
            if wait is None or attempt >= self.max_retries or wait > self.max_delay:
                with response:
                    raise _problem_from(response)
            response.close()
            time.sleep(wait)
            attempt += 1

    def json(self, method: str, path: str, **kwargs: Any) -> Any:
        with self.send(method, path, **kwargs) as response:
            raw = response.read()
        return json.loads(raw.decode("utf-8")) if raw else None

    def _backoff(self, attempt: int) -> float:
        ceiling = min(self.max_delay, self.base_delay * 2 ** attempt)
        return ceiling / 2 + random.random() * ceiling / 2


def _multipart(photos: Sequence[PhotoUpload], fields: Mapping[str, Optional[str]]) -> Tuple[bytes, str]:
    boundary = f"----photo-missions-{uuid.uuid4().hex}"
    parts: List[bytes] = []
    for name, value in fields.items():
        if value is not None:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode("utf-8"))
    for index, photo in enumerate(photos):
        filename, data = photo if isinstance(photo, tuple) else (f"photo-{index + 1}.jpg", photo)
        safe = filename.replace('"', "").replace("\r", "").replace("\n", "")
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="photos"; filename="{safe}"\r\nContent-Type: image/jpeg\r\n\r\n'.encode("utf-8") + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode("ascii"))
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _paginate(fetch_page: Callable[[int, int], Json], per_page: int = 100) -> Iterator[Json]:
    """Every item of a paged list, page by page, as long as the caller keeps reading."""
    page = 1
    while True:
        result = fetch_page(page, per_page)
        data, meta = result["data"], result["meta"]
        yield from data
        if not data or meta["page"] * meta["per_page"] >= meta["total"]:
            return
        page += 1


def _q(value: str) -> str:
    return urllib.parse.quote(value, safe="")


def mission_body(fields: Mapping[str, Any]) -> Json:
    """REST names for a mission: the SDK preview's ``requiredImages`` becomes ``required_images``."""
    body = {k: v for k, v in fields.items() if v is not None and k != "requiredImages"}
    if fields.get("requiredImages") is not None:
        body["required_images"] = fields["requiredImages"]
    return body


class _Resource:
    def __init__(self, http: _Transport):
        self._http = http


class Missions(_Resource):
    def create(self, *, title: str, bounds: Json, required_images: Optional[int] = None, description: Optional[str] = None,
               idempotency_key: Optional[str] = None, **preview: Any) -> Json:
        """Creates a mission; ``requiredImages=`` (the SDK preview's name) works as well as ``required_images=``."""
        body = mission_body({"title": title, "bounds": bounds, "description": description, "required_images": required_images, **preview})
        return self._http.json("POST", f"{V1}/missions", json_body=body, idempotency_key=idempotency_key)

    def get(self, mission_id: str) -> Json:
        return self._http.json("GET", f"{V1}/missions/{_q(mission_id)}")

    def update(self, mission_id: str, **fields: Any) -> Json:
        return self._http.json("PATCH", f"{V1}/missions/{_q(mission_id)}", json_body=mission_body(fields))

    def cancel(self, mission_id: str) -> Json:
        return self._http.json("POST", f"{V1}/missions/{_q(mission_id)}/cancel")

    def list(self, **query: Any) -> Json:
        """One page: ``{"data": [...], "meta": {"total", "page", "per_page"}}``."""
        return self._http.json("GET", f"{V1}/missions", query=query)

    def iterate(self, per_page: int = 100, **query: Any) -> Iterator[Json]:
        return _paginate(lambda page, size: self.list(page=page, per_page=size, **query), per_page)

    def list_submissions(self, mission_id: str, **query: Any) -> Json:
        return self._http.json("GET", f"{V1}/missions/{_q(mission_id)}/submissions", query=query)

    def iterate_submissions(self, mission_id: str, per_page: int = 100, **query: Any) -> Iterator[Json]:
        return _paginate(lambda page, size: self.list_submissions(mission_id, page=page, per_page=size, **query), per_page)

    def export(self, mission_id: str) -> Download:
        """The mission's ZIP (original images and metadata.json), streamed."""
        return Download(self._http.send("GET", f"{V1}/missions/{_q(mission_id)}/export", accept="application/zip"))


class Submissions(_Resource):
    def create(self, mission_id: str, photos: Sequence[PhotoUpload], angle: Optional[str] = None, note: Optional[str] = None,
               idempotency_key: Optional[str] = None) -> Json:
        """Uploads photos (bytes, or (filename, bytes)) to a mission as a zoomer; QA runs afterwards."""
        body, content_type = _multipart(photos, {"angle": angle, "note": note})
        return self._http.json("POST", f"{V1}/missions/{_q(mission_id)}/submissions", body=body, content_type=content_type, idempotency_key=idempotency_key)

    def get(self, submission_id: str) -> Json:
        return self._http.json("GET", f"{V1}/submissions/{_q(submission_id)}")

    def images(self, submission_id: str) -> Json:
        return self._http.json("GET", f"{V1}/submissions/{_q(submission_id)}/images")


class Images(_Resource):
    def download(self, signed_url: str) -> Download:
        """Streams an image from its signed CDN URL (original bytes, EXIF intact); no credentials are sent."""
        return Download(self._http.send("GET", signed_url, authenticated=False, accept="image/*"))


class Webhooks(_Resource):
    def create(self, url: str, events: Optional[List[str]] = None, description: Optional[str] = None) -> Json:
        """Registers an endpoint; the result's ``secret`` is shown this once."""
        body: Json = {"url": url}
        if events is not None:
            body["events"] = events
        if description is not None:
            body["description"] = description
        return self._http.json("POST", f"{V1}/webhooks", json_body=body)

    def list(self) -> Json:
        return self._http.json("GET", f"{V1}/webhooks")

    def get(self, webhook_id: str) -> Json:
        return self._http.json("GET", f"{V1}/webhooks/{_q(webhook_id)}")

    def update(self, webhook_id: str, **fields: Any) -> Json:
        return self._http.json("PATCH", f"{V1}/webhooks/{_q(webhook_id)}", json_body=fields)

    def delete(self, webhook_id: str) -> None:
        self._http.send("DELETE", f"{V1}/webhooks/{_q(webhook_id)}").close()

    def rotate_secret(self, webhook_id: str) -> Json:
        return self._http.json("POST", f"{V1}/webhooks/{_q(webhook_id)}/rotate-secret")

    def send_test(self, webhook_id: str) -> Json:
        return self._http.json("POST", f"{V1}/webhooks/{_q(webhook_id)}/test")

    def deliveries(self, webhook_id: str, **query: Any) -> Json:
        return self._http.json("GET", f"{V1}/webhooks/{_q(webhook_id)}/deliveries", query=query)


class Field(_Resource):
    """For zoomers: missions and order tasks near them."""

    def nearby_missions(self, lat: float, lng: float, **query: Any) -> Json:
        return self._http.json("GET", f"{V1}/field/missions", query={"lat": lat, "lng": lng, **query})

    def nearby_assignments(self, lat: float, lng: float, **query: Any) -> Json:
        return self._http.json("GET", f"{V1}/field/assignments", query={"lat": lat, "lng": lng, **query})

    def get_assignment(self, assignment_id: str) -> Json:
        return self._http.json("GET", f"{V1}/field/assignments/{_q(assignment_id)}")

    def take_assignment(self, assignment_id: str) -> Json:
        return self._http.json("POST", f"{V1}/field/assignments/{_q(assignment_id)}/take")

    def release_assignment(self, assignment_id: str) -> Json:
        return self._http.json("POST", f"{V1}/field/assignments/{_q(assignment_id)}/release")

    def submit_assignment_photo(self, assignment_id: str, photo: PhotoUpload) -> Json:
        body, content_type = _multipart([photo], {})
        return self._http.json("POST", f"{V1}/field/assignments/{_q(assignment_id)}/photo", body=body, content_type=content_type)


class Orders(_Resource):
    def quote(self, order: Json) -> Json:
        return self._http.json("POST", f"{ORDERS}/orders/quote", json_body=order)

    def create(self, order: Json, idempotency_key: Optional[str] = None) -> Json:
        return self._http.json("POST", f"{ORDERS}/orders", json_body=order, idempotency_key=idempotency_key)

    def get(self, order_id: str) -> Json:
        return self._http.json("GET", f"{ORDERS}/orders/{_q(order_id)}")

    def list(self, **query: Any) -> Json:
        return self._http.json("GET", f"{ORDERS}/orders", query=query)

    def iterate(self, per_page: int = 100, **query: Any) -> Iterator[Json]:
        return _paginate(lambda page, size: self.list(page=page, per_page=size, **query), per_page)

    def confirm(self, order_id: str, payment_method: str = "card", payment_method_id: Optional[str] = None, idempotency_key: Optional[str] = None) -> Json:
        """Confirms and pays (test mode: ``payment_method_id="pm_card_visa"``)."""
        body: Json = {"payment_method": payment_method}
        if payment_method_id is not None:
            body["payment_method_id"] = payment_method_id
        return self._http.json("POST", f"{ORDERS}/orders/{_q(order_id)}/confirm", json_body=body, idempotency_key=idempotency_key)

    def cancel(self, order_id: str, reason: Optional[str] = None) -> Json:
        return self._http.json("POST", f"{ORDERS}/orders/{_q(order_id)}/cancel", json_body={} if reason is None else {"reason": reason})

    def pause(self, order_id: str) -> Json:
        return self._http.json("POST", f"{ORDERS}/orders/{_q(order_id)}/pause")

    def resume(self, order_id: str) -> Json:
        return self._http.json("POST", f"{ORDERS}/orders/{_q(order_id)}/resume")

    def missions(self, order_id: str) -> Json:
        return self._http.json("GET", f"{ORDERS}/orders/{_q(order_id)}/missions")

    def list_photos(self, order_id: str, **query: Any) -> Json:
        return self._http.json("GET", f"{ORDERS}/orders/{_q(order_id)}/photos", query=query)

    def iterate_photos(self, order_id: str, per_page: int = 100, **query: Any) -> Iterator[Json]:
        return _paginate(lambda page, size: self.list_photos(order_id, page=page, per_page=size, **query), per_page)

    def schedule(self, order_id: str) -> Json:
        return self._http.json("GET", f"{ORDERS}/orders/{_q(order_id)}/schedule")

    def create_delivery_secret(self) -> Json:
        """The order-delivery secret that signs photos.delivered: created once, shown once."""
        return self._http.json("POST", f"{ORDERS}/delivery-secret")

    def rotate_delivery_secret(self) -> Json:
        return self._http.json("POST", f"{ORDERS}/delivery-secret/rotate")


class PhotoMissions:
    """``PhotoMissions(base_url, client_id=..., client_secret=...)`` or ``PhotoMissions(base_url, api_key=...)``."""

    def __init__(self, base_url: str, *, client_id: Optional[str] = None, client_secret: Optional[str] = None,
                 scope: Optional[str] = None, token_url: Optional[str] = None, api_key: Optional[str] = None,
                 max_retries: int = 3, base_delay: float = 0.5, max_delay: float = 60.0, timeout: float = 30.0):
        origin = base_url.rstrip("/")
        auth: Union[ClientCredentials, ApiKey]
        if api_key is not None:
            if client_id is not None:
                raise ValueError("Give either api_key or client_id/client_secret, not both.")
            auth = ApiKey(api_key)
            self.credentials: Optional[ClientCredentials] = None
        elif client_id is not None and client_secret is not None:
            self.credentials = ClientCredentials(origin, client_id, client_secret, scope=scope, token_url=token_url, timeout=timeout)
            auth = self.credentials
        else:
            raise ValueError("Give client_id and client_secret (OAuth client credentials) or api_key.")
        http = _Transport(origin, auth, max_retries, base_delay, max_delay, timeout)
        self.missions = Missions(http)
        self.submissions = Submissions(http)
        self.images = Images(http)
        self.webhooks = Webhooks(http)
        self.field = Field(http)
        self.orders = Orders(http)
