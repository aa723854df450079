public enum _P3 {}
