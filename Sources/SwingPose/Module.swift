// SwingPose — module placeholder; replaced as the module is built.
