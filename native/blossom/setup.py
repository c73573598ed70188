from setuptools import Extension, setup

setup(ext_modules=[Extension("ttt_blossom", ["ttt_blossom.cpp"], language="c++",
                             extra_compile_args=["-O2", "-std=c++17"])])
