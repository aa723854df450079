import Yams
import ArgumentParser
print("flowspec")
