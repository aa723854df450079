import Hummingbird
import Crypto
