from tests.store.backends import bus_redis_url

__all__ = ["bus_redis_url"]
